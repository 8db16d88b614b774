import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { call } from "../helpers/api";
import { cardPhoto, imageForm, noCardPhoto, SAMPLE_CARD } from "../helpers/images";

// POST /v1/vision/identify against the shared catalogue's index (built by the global setup).

const identify = async (photo: Buffer, query = "", headers: Record<string, string> = {}) => {
  const res = await call("POST", `/v1/vision/identify${query}`, { body: imageForm(photo), headers });
  return { res, body: await res.json() };
};

describe("POST /v1/vision/identify", () => {
  it("names the photographed card first, with distances rising down the list", async () => {
    const { res, body } = await identify(await cardPhoto(SAMPLE_CARD, "identify-1"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-cost")).toBe("25");
    expect(body.no_match).toBe(false);
    expect(body.data).toHaveLength(5);
    expect(body.data[0].card.id).toBe("base1-4");
    expect(body.data[0].card.name).toBe("Charizard");
    const d = body.data.map((c: { distance: number }) => c.distance);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    expect(d[0]).toBeLessThan(d[1] / 2);
    expect(body.meta.outline).toHaveLength(4);
    expect(body.meta.index.cards).toBeGreaterThan(30_000);
  });

  it("top_k and includes set the candidates and the cost: 26, 29, 30 as SPEC.md counts them", async () => {
    const photo = await cardPhoto(SAMPLE_CARD, "identify-2");
    for (const [query, cost, n] of [["?top_k=1&include=index", "26", 1], ["?top_k=10&include=prices", "29", 10], ["?top_k=10&include=index,prices", "30", 10]] as const) {
      const { res, body } = await identify(photo, query);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-credits-cost")).toBe(cost);
      expect(body.data).toHaveLength(n);
      expect(body.data[0].card.id).toBe("base1-4");
      if (query.includes("prices")) expect(body.data[0].card).toHaveProperty("prices");
      if (query.includes("index")) expect(body.data[0].card).toHaveProperty("index_eur");
    }
  });

  it("a photo of no card is an empty no_match that costs 25, whatever the includes reserved", async () => {
    const a = await makeAccount({ plan: "growth" });
    const { res, body } = await identify(await noCardPhoto(), "?top_k=10&include=index,prices", { "x-api-key": a.key });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ data: [], no_match: true, meta: { count: 0 } });
    expect(res.headers.get("x-credits-cost")).toBe("25");
    const limit = Number(res.headers.get("x-quota-limit"));
    expect(Number(res.headers.get("x-quota-remaining"))).toBe(limit - 25);
    // The next call starts from the balance this answer showed.
    const again = await identify(await noCardPhoto(), "?top_k=10&include=prices", { "x-api-key": a.key });
    expect(Number(again.res.headers.get("x-quota-remaining"))).toBe(limit - 50);
  });

  it("bad input: top_k out of range, an unknown include, a broken file, an empty upload", async () => {
    const photo = await cardPhoto(SAMPLE_CARD, "identify-3");
    for (const [query, code] of [["?top_k=0", "INVALID_PARAMETER"], ["?top_k=51", "INVALID_PARAMETER"], ["?include=artwork", "INVALID_INCLUDE"]] as const) {
      const { res, body } = await identify(photo, query);
      expect(res.status).toBe(400);
      expect(body.error.code).toBe(code);
      expect(res.headers.get("x-credits-cost")).toBe("0");
    }
    const truncated = (await sharp(photo).jpeg().toBuffer()).subarray(0, 2000);
    const tiny = await sharp({ create: { width: 20, height: 28, channels: 3, background: "#c33" } }).png().toBuffer();
    for (const bytes of [truncated, Buffer.from("not an image at all"), tiny]) {
      const { res, body } = await identify(bytes);
      expect(res.status).toBe(400);
      expect(body.error.code).toBe("INVALID_IMAGE");
    }
  });

  it("EXIF orientation is honoured: a sideways-stored photo tagged to turn upright is identified", async () => {
    const photo = await cardPhoto(SAMPLE_CARD, "identify-4");
    // Stored turned 90° counter-clockwise, tagged 6 (turn 90° clockwise to view).
    const stored = await sharp(photo).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer();
    const { res, body } = await identify(stored);
    expect(res.status).toBe(200);
    expect(body.data[0].card.id).toBe("base1-4");
  });

  it("trial: refused before email confirmation, then 5 calls, then PLAN_REQUIRED; candidates count as cards", async () => {
    const unconfirmed = await makeAccount();
    const photo = await cardPhoto(SAMPLE_CARD, "identify-5");
    const first = await identify(photo, "", { "x-api-key": unconfirmed.key });
    expect(first.res.status).toBe(403);
    expect(first.body.error.code).toBe("PLAN_REQUIRED");
    expect(first.body.error.message).toMatch(/^Confirm your email/);

    const trial = await makeAccount({ confirmed: true });
    for (let i = 1; i <= 5; i++) {
      const { res } = await identify(photo, "?top_k=3", { "x-api-key": trial.key });
      expect(res.status).toBe(200);
      // The same three candidates each time: three distinct cards in all.
      expect(res.headers.get("x-cards-used")).toBe("3");
    }
    const sixth = await identify(photo, "?top_k=3", { "x-api-key": trial.key });
    expect(sixth.res.status).toBe(403);
    expect(sixth.body.error.code).toBe("PLAN_REQUIRED");

    const developer = await makeAccount({ plan: "developer" });
    const dev = await identify(photo, "", { "x-api-key": developer.key });
    expect(dev.res.status).toBe(403);
    expect(dev.body.error.code).toBe("PLAN_REQUIRED");
  });
});
