import { describe, expect, it } from "vitest";
import { call, getJson } from "../helpers/api";

// The centering routes that need no photo: grade ceilings from ratios, and the standards.

const post = async (body: unknown) => {
  const res = await call("POST", "/v1/centering/grade", { headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { res, body: await res.json() };
};

describe("POST /v1/centering/grade", () => {
  it("gives each house's ceiling, its front and back bands, and the way to the next band", async () => {
    const { res, body } = await post({ front: { left_right: "57/43", top_bottom: 52 }, back: { left_right: "80/20", top_bottom: "50/50" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-cost")).toBe("1");
    expect(body.data.front).toEqual({ left_right: "57/43", top_bottom: "52/48" });
    const psa = body.data.ceilings.find((c: { house: string }) => c.house === "PSA");
    expect(psa).toMatchObject({ max_grade: "9", front: { grade: "9" }, back: { grade: "9" }, limited_by: "back", next_grade: "10", to_next_band: 5, status: "official" });
    expect(body.data.ceilings.map((c: { house: string }) => c.house)).toEqual(["PSA", "BGS", "CGC", "SGC"]);
  });

  it("refuses a ratio whose sides do not add up, an unknown face and a missing front, naming the field", async () => {
    for (const [bad, parameter] of [
      [{ front: { left_right: "60/60", top_bottom: 50 } }, "front.left_right"],
      [{ front: { left_right: 50, top_bottom: 50 }, side: {} }, "side"],
      [{ back: { left_right: 50, top_bottom: 50 } }, "front"],
    ] as const) {
      const { res, body } = await post(bad);
      expect(res.status).toBe(400);
      expect(body.error.code).toBe("INVALID_PARAMETER");
      expect(JSON.stringify(body.error.details)).toContain(parameter);
      expect(res.headers.get("x-credits-cost")).toBe("0");
    }
  });
});

describe("GET /v1/centering/standards", () => {
  it("four houses with their bands, each figure official or interpreted, and sources", async () => {
    const { res, body } = await getJson("/v1/centering/standards");
    expect(res.status).toBe(200);
    expect(body.count).toBe(4);
    const psa = body.data.find((s: { house: string }) => s.house === "PSA");
    expect(psa.sources[0]).toMatch(/^https:\/\/www\.psacard\.com\//);
    expect(psa.bands[0]).toMatchObject({ grade: "10", front: "55/45", back: "75/25", status: "official" });
    const bgs = body.data.find((s: { house: string }) => s.house === "BGS");
    expect(bgs.bands.find((b: { grade: string }) => b.grade === "9.5")).toMatchObject({ front: "55/45", front_better_axis: "50/50", back: "60/40" });
  });
});
