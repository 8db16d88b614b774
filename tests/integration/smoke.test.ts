import { describe, expect, it } from "vitest";
import { getJson } from "../helpers/api";

describe("integration harness", () => {
  it("serves a card from the imported catalogue", async () => {
    const { res, body } = await getJson("/v1/cards/base1-4?select=name");
    expect(res.status).toBe(200);
    expect(body.data).toEqual({ id: "base1-4", name: "Charizard" });
  });
});
