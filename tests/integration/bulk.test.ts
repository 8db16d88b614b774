import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBulk } from "@/lib/bulk/build";
import { progress } from "@/lib/jobs/progress";
import { refreshIndex } from "@/lib/prices/refresh-index";
import { refreshPrices } from "@/lib/prices/refresh";
import { call, getJson } from "../helpers/api";
import { makeAccount } from "../helpers/accounts";

// build-bulk, GET /v1/bulk and the downloads: every line read back equals the API's own row.

const quiet = () => progress("test", { quiet: true });
const PRICED = "base1-10";

async function download(type: string, headers: Record<string, string> = {}) {
  const res = await call("GET", `/v1/bulk/${type}`, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}
const lines = (gz: Buffer) => gunzipSync(gz).toString("utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("bulk files on local storage", () => {
  beforeAll(async () => {
    // A priced card of this file's own (other files change theirs while this one runs).
    const dir = mkdtempSync(path.join(tmpdir(), "bulk-feeds-"));
    mkdirSync(path.join(dir, "cardmarket"));
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(path.join(dir, "cardmarket", "bulk.ndjson"), JSON.stringify({
      product: `card:${PRICED}`, date: day, language: "en", printing: "HOLOFOIL", trend: 40, low: 35, provenance: `Cardmarket (bulk test ${Date.now()})`,
    }) + "\n");
    await refreshPrices(dir, quiet());
    await refreshIndex(quiet());
    await buildBulk(quiet(), ["cards", "sets", "sealed", "index", "prices"]);
  }, 120_000);

  it("lists every file with size, sha256, rows and a download URL", async () => {
    const { res, body } = await getJson("/v1/bulk");
    expect(res.headers.get("x-credits-cost")).toBe("1");
    expect(body.data.map((f: any) => f.type)).toEqual(["cards", "index", "prices", "sealed", "sets"]);
    const cards = body.data.find((f: any) => f.type === "cards");
    expect(cards).toMatchObject({ content_type: "application/gzip", format: "ndjson", download_url: "http://api.test/v1/bulk/cards" });
    const { res: dl, bytes } = await download("cards");
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-type")).toBe("application/gzip");
    expect(bytes.length).toBe(cards.size);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(cards.sha256);
    expect(lines(bytes)).toHaveLength(cards.rows);
  });

  it("a line of each file equals the API's own row", async () => {
    const cards = lines((await download("cards")).bytes);
    expect(cards.find((c) => c.id === "base1-4")).toEqual((await getJson("/v1/cards/base1-4")).body.data);
    expect(new Set(cards.map((c) => c.id)).size).toBe(cards.length);
    const sets = lines((await download("sets")).bytes);
    expect(sets.find((s) => s.code === "base1")).toEqual((await getJson("/v1/sets/base1")).body.data);
    const sealed = lines((await download("sealed")).bytes);
    expect(sealed.find((s) => s.sku === "SV9-623628")).toEqual((await getJson("/v1/sealed/SV9-623628")).body.data);
    const prices = lines((await download("prices")).bytes);
    const priced = prices.find((p) => p.card_id === PRICED)!;
    const api = (await getJson(`/v1/cards/${priced.card_id}/prices`)).body.data;
    expect(priced).toEqual(api);
    const index = lines((await download("index")).bytes);
    expect(index.find((p) => p.card_id === priced.card_id)).toEqual({ card_id: priced.card_id, index: api.index });
  });

  it("revalidates by sha256, refuses the full prices to a trial, and 404s unknown types", async () => {
    const first = await download("sets");
    const again = await call("GET", "/v1/bulk/sets", { headers: { "if-none-match": first.res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    const trial = await makeAccount({ confirmed: true });
    const refused = await getJson("/v1/bulk/prices", { "x-api-key": trial.key });
    expect(refused.res.status).toBe(403);
    expect(refused.body.error.code).toBe("PLAN_REQUIRED");
    // A plan decision, made here by the handler after the meter: no quota or rate headers (SPEC.md QUOTA_EXCEEDED details 7).
    expect([...refused.res.headers.keys()].filter((h) => /^(ratelimit-|x-quota-)/.test(h))).toEqual([]);
    expect(refused.res.headers.get("x-credits-cost")).toBe("0");
    // The index file too: its entries stand on figures the trial's price routes withhold.
    const index = await getJson("/v1/bulk/index", { "x-api-key": trial.key });
    expect([index.res.status, index.body.error.code]).toEqual([403, "PLAN_REQUIRED"]);
    expect((await getJson("/v1/bulk", { "x-api-key": trial.key })).body.data.filter((f: { paid_only: boolean }) => f.paid_only).map((f: { type: string }) => f.type).sort())
      .toEqual(["index", "prices"]);
    expect((await download("cards", { "x-api-key": trial.key })).res.status).toBe(200);
    // Before confirmation the refusal says so first (SPEC.md PLAN_REQUIRED).
    const unconfirmed = await makeAccount();
    expect((await getJson("/v1/bulk/prices", { "x-api-key": unconfirmed.key })).body.error.message).toMatch(/^Confirm your email/);
    const unknown = await getJson("/v1/bulk/nope");
    expect(unknown.res.status).toBe(404);
    expect(unknown.body.error.details.valid_values).toContain("cards");
  });
});

