import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { storeCardFront } from "@/lib/images/store";
import { progress } from "@/lib/jobs/progress";
import { identifyPhoto } from "@/lib/vision/identify";
import { buildVisionIndex } from "@/lib/vision/index-build";
import { openIndex } from "@/lib/vision/index-file";
import { renderFace } from "@/lib/vision/render";
import { resetVisionIndex } from "@/lib/vision/search";
import { synthPhoto } from "@/lib/vision/synth";
import { makeAccount } from "../helpers/accounts";
import { call } from "../helpers/api";
import { query } from "../helpers/db";
import { cardPhoto, imageForm } from "../helpers/images";
import { TEST_VISION_DIR } from "../helpers/paths";

// The identification index follows the images: a real scan stored for a card replaces its
// rendered face, and the rebuild describes only the cards whose source changed. Works on a
// copy of the shared index, so the other files' searches are not disturbed.

const CARD = "base3-10";
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "vision-index-"));
  copyFileSync(path.join(TEST_VISION_DIR, "index.bin"), path.join(dir, "index.bin"));
  process.env.VISION_INDEX_DIR = dir;
  resetEnvForTests();
  resetVisionIndex();
});

afterAll(async () => {
  await query("delete from images where owner_kind = 'card' and owner_id = $1 and origin = 'scan'", [CARD]);
  process.env.VISION_INDEX_DIR = TEST_VISION_DIR;
  resetEnvForTests();
  resetVisionIndex();
});

describe("vision-index", () => {
  it("without an index, identify is a 503 PROVIDER_UNAVAILABLE with Retry-After, the trial call given back", async () => {
    process.env.VISION_INDEX_DIR = mkdtempSync(path.join(tmpdir(), "no-index-"));
    resetEnvForTests();
    resetVisionIndex();
    try {
      const a = await makeAccount({ confirmed: true });
      const res = await call("POST", "/v1/vision/identify", { body: imageForm(await cardPhoto()), headers: { "x-api-key": a.key } });
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe("PROVIDER_UNAVAILABLE");
      expect(res.headers.get("retry-after")).toBe("60");
      expect(res.headers.get("x-credits-cost")).toBe("0");
      const me = await (await call("GET", "/v1/me", { headers: { "x-api-key": a.key } })).json();
      expect(me.data.trial_calls.identify).toEqual({ used: 0, limit: 5 });
    } finally {
      process.env.VISION_INDEX_DIR = dir;
      resetEnvForTests();
      resetVisionIndex();
    }
  });

  it("a stored scan replaces the rendered face; only changed cards are described again", async () => {
    // The operator's "scan": a face whose artwork differs from the one rendered for the card.
    const scan = await renderFace({ id: "an-operator-scan", name: "Scan", hp: 70, number: "10", set_code: "base3", supertype: "Pokémon", types: ["Water"], rarity: "Rare", attacks: [] });
    await storeCardFront(CARD, scan, "scan");
    const r = await buildVisionIndex(progress("test", { quiet: true }));
    expect(r.kept).toBeGreaterThan(r.cards - 10);
    expect(r.described).toBeGreaterThanOrEqual(1);
    expect(r.described).toBeLessThan(10);
    const idx = (await openIndex())!;
    const row = idx.meta.ids.indexOf(CARD);
    expect(idx.meta.stamps[row]).toMatch(/^[0-9a-f]{64}$/);
    await idx.close();
    // A photo of the scan now finds the card.
    resetVisionIndex();
    const { photo } = await synthPhoto(scan, { seed: "vision-index" });
    const found = await identifyPhoto(photo, 3);
    expect(found.noMatch).toBe(false);
    expect(found.candidates[0]!.id).toBe(CARD);
  });
});
