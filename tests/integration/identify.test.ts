import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { call } from "../helpers/api";
import { faceRow } from "@/lib/images/queries/images";
import { withPrinting } from "@/lib/vision/art";
import { renderFace } from "@/lib/vision/render";
import { synthPhoto } from "@/lib/vision/synth";
import { hardPhoto } from "@/lib/vision/synth-hard";
import { cardPhoto, imageForm, noCardPhoto, SAMPLE_CARD } from "../helpers/images";

// POST /v1/vision/identify against the shared catalogue's index (built by the global setup).

const identify = async (photo: Buffer, query = "", headers: Record<string, string> = {}) => {
  const res = await call("POST", `/v1/vision/identify${query}`, { body: imageForm(photo), headers });
  return { res, body: await res.json() };
};

/** synth-hard.ts's hard photo of the catalogue card `id` (its printing on its face), identified. */
async function identifyHard(id: string, seed: string) {
  const face = await renderFace(await withPrinting((await faceRow(id))!));
  const { photo } = await hardPhoto(face, seed, "hard");
  return identify(photo);
}

/** synth-hard.ts's hard photo of the catalogue card `id` names that card first. */
async function expectIdentified(id: string, seed: string): Promise<void> {
  const { res, body } = await identifyHard(id, seed);
  expect(res.status).toBe(200);
  expect(body.no_match, id).toBe(false);
  expect(body.data[0].card.id).toBe(id);
}

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
    // Base Set's Charizard shares its artwork with its reprints (Base Set 2, Legendary
    // Collection, the Japanese original): the printed line told them apart.
    expect(body.meta.printing).toEqual({ shared_artwork: 4, ambiguous: false, read: { line: "BS 4/102", language: "EN" } });
    const sharing = body.data.filter((c: { shares_artwork: boolean }) => c.shares_artwork).map((c: { card: { id: string } }) => c.card.id);
    expect(sharing.sort()).toEqual(["base1-4", "base4-4", "base6-3", "tcgdex-asia-PMCG1-021"]);
    // The first card of another artwork stands well apart from the shared one.
    const other = body.data.find((c: { shares_artwork: boolean }) => !c.shares_artwork);
    expect(d[0]).toBeLessThan(other.distance / 2);
    expect(body.meta.outline).toHaveLength(4);
    expect(body.meta.index.cards).toBeGreaterThan(30_000);
  });

  it("cards that share an artwork are told apart by their printed line: set code, number and language", async () => {
    for (const [id, line, language] of [["base4-4", "B2 4/130", "EN"], ["tcgdex-asia-PMCG1-021", "PMCG1 021/102", "JA"]] as const) {
      const face = await renderFace(await withPrinting((await faceRow(id))!));
      const { photo } = await synthPhoto(face, { seed: `shared-${id}` });
      const { res, body } = await identify(photo);
      expect(res.status).toBe(200);
      expect(body.data[0].card.id).toBe(id);
      expect(body.meta.printing).toMatchObject({ ambiguous: false, read: { line, language } });
    }
  });

  it("a small card whose sides fall behind the long edges of fingers and stripes is still found (more lines tried)", async () => {
    // Two of synth-hard.ts's hard tuning photos: no_match while only the 26 strongest lines closed quads.
    for (const [id, seed] of [["smp-SM52", "tune:20"], ["sm10-225", "tune:56"]] as const) {
      await expectIdentified(id, seed);
    }
  });

  it("a card covering 6-7 % of the photo, and one whose first outline was closed by clutter, are found", async () => {
    // synth-hard.ts's hard tuning photos, each no_match before: tune:9 and tune:46 are cards of
    // 6.5 and 7 % of the frame (quads under 8 % were not looked at); on tune:16 the 26 strongest
    // lines closed a quad of clutter (score 0.41), and 40 were tried only when they closed none.
    for (const [id, seed] of [["tcgdex-asia-SV3-079", "tune:9"], ["tcgdex-asia-SV4a-053", "tune:46"], ["sm12-16", "tune:16"]] as const) {
      await expectIdentified(id, seed);
    }
  });

  it("a card whose best outline is clutter's is found among the next card-shaped quads, and one its coarse vector ranks far down is found deeper", async () => {
    // synth-hard.ts's hard photos of seeds "fresh1", each no_match before: on fresh1:57 and
    // fresh1:131 the outline chosen lay off the card (a finger's and a plank's edges) while the
    // card's own quad was the 2nd and 3rd of the next; on fresh1:17 and fresh1:32 the outline
    // was right but blur and glare put the card 111th and 107th in the coarse scan, past the 48
    // rows re-ranked.
    for (const [id, seed] of [["xy10-121", "fresh1:57"], ["swsh12pt5-110", "fresh1:131"], ["pl3-108", "fresh1:17"], ["ex2-39", "fresh1:32"]] as const) {
      await expectIdentified(id, seed);
    }
  });

  it("a runner-up artwork 1.6 times as far is not taken for the card, and a right one just over 0.2 is", async () => {
    // synth-hard.ts's hard tuning photos under the decision rule of before (0.2 / 0.65): tune:49
    // was answered as hgss2-82 (0.172 against 0.272 next, ratio 0.63, fingers and glare over the
    // artwork), which kept the printed line's search from running; tune:25 was no_match, its
    // card at 0.206 against 0.403 for the next artwork.
    for (const [id, seed] of [["sv5-99", "tune:49"], ["tcgdex-asia-S8-011", "tune:25"]] as const) {
      await expectIdentified(id, seed);
    }
  });

  it("an outline with one side a few hundredths off (the card's out of the frame, a finger along it) still reads which printing it is", async () => {
    // synth-hard.ts's hard tuning photos: the artwork found, the printing answered as the other
    // card of the artwork (ambiguous) through an outline whose right side lay on the frame's edge
    // (tune:62, 25-30 px in) or whose bottom lay on a finger (tune:69, 12-13 px up).
    for (const [id, seed, line] of [["tcgdex-asia-SM7-066", "tune:62", "SM7 066/96"], ["tcgdex-me05-001", "tune:69", "PBL 001/84"]] as const) {
      const { body } = await identifyHard(id, seed);
      expect(body.data[0].card.id, seed).toBe(id);
      expect(body.meta.printing, seed).toMatchObject({ ambiguous: false, read: { line } });
    }
  });

  it("a face cropped to the card (a scan, the image route's own face) reads its printing, not the printed frame's", async () => {
    // The card's edge is the image's edge: the only rectangle with edges inside is the printed frame.
    for (const [id, line] of [["base1-4", "BS 4/102"], ["base4-4", "B2 4/130"]] as const) {
      const face = await renderFace(await withPrinting((await faceRow(id))!));
      const scan = await sharp(face).resize(734, 1025).webp({ quality: 90 }).toBuffer();
      const { res, body } = await identify(scan);
      expect(res.status).toBe(200);
      expect(body.data[0].card.id).toBe(id);
      expect(body.meta.printing).toMatchObject({ ambiguous: false, read: { line, language: "EN" } });
    }
  });

  it("when the printed line is hidden, the cards sharing the artwork come first and the printing is flagged ambiguous", async () => {
    const card = await withPrinting((await faceRow("base4-4"))!);
    const face = await renderFace(card);
    // A thumb over the card's foot, where the line is printed.
    const covered = await sharp(face).composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="630" height="880"><rect x="20" y="770" width="600" height="90" rx="40" fill="#e0ac69"/></svg>`) }]).png().toBuffer();
    const { photo } = await synthPhoto(covered, { seed: "covered-line" });
    const { res, body } = await identify(photo, "?top_k=6");
    expect(res.status).toBe(200);
    expect(body.no_match).toBe(false);
    expect(body.meta.printing.ambiguous).toBe(true);
    expect(body.meta.printing.read).toBeNull();
    const firstFour = body.data.slice(0, 4).map((c: { card: { id: string }; shares_artwork: boolean }) => [c.card.id, c.shares_artwork]);
    expect(firstFour.map(([id]: [string]) => id).sort()).toEqual(["base1-4", "base4-4", "base6-3", "tcgdex-asia-PMCG1-021"]);
    expect(firstFour.every(([, s]: [string, boolean]) => s)).toBe(true);
    expect(body.data[4].shares_artwork).toBe(false);
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
    // No card, so no printing: nothing is said of the nearest artwork, which is not credible.
    expect(body.meta.printing).toEqual({ shared_artwork: 0, ambiguous: false, read: null });
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
