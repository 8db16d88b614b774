import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { lockChangeFeed } from "@/lib/changes/lock";
import { getDb } from "@/lib/db/client";
import { recordPriceChanges } from "@/lib/prices/queries/index-job";
import { getJson } from "../helpers/api";

// GET /v1/changes: order, filters, resuming, and paging while writers append.

const latest = async () => (await getJson("/v1/changes?limit=1")).body.meta.last_seq as number;

describe("GET /v1/changes", () => {
  it("pages 50 changes by default, like every list (SPEC.md Pagination rule 7)", async () => {
    const { body } = await getJson("/v1/changes");
    expect(body.meta.limit).toBe(50);
    expect(body.data.length).toBeLessThanOrEqual(50);
  });

  it("pages in seq order with kind and after filters; resumes from meta.next_after", async () => {
    const start = await latest();
    await recordPriceChanges([{ kind: "card", id: "base1-4" }, { kind: "sealed", id: "some-box" }, { kind: "card", id: "base1-5" }]);
    const first = await getJson(`/v1/changes?after=${start}&kind=PRICE&limit=2`);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("x-credits-cost")).toBe("1");
    expect(first.body.data.map((c: any) => [c.kind, c.id, c.product ?? null])).toEqual([["PRICE", "base1-4", "card"], ["PRICE", "some-box", "sealed"]]);
    expect(first.body.data[0].seq).toBeLessThan(first.body.data[1].seq);
    expect(first.body.meta.has_more).toBe(true);
    const next = await getJson(first.body.links.next.replace(/^https?:\/\/[^/]+/, ""));
    expect(next.body.data.map((c: any) => c.id)).toEqual(["base1-5"]);
    const resumed = await getJson(`/v1/changes?after=${first.body.meta.next_after}&kind=PRICE`);
    expect(resumed.body.data.map((c: any) => c.id)).toEqual(["base1-5"]);
  });

  it("a page that matches nothing resumes from the feed's end, not from the start", async () => {
    // An `after` past the end too: resuming there would skip the changes still to come.
    for (const q of ["since=2099-01-01T00:00:00Z", `after=1&kind=IMAGE&since=2099-01-01T00:00:00Z`, "after=999999999"]) {
      const { body } = await getJson(`/v1/changes?${q}`);
      expect(body.data, q).toEqual([]);
      expect(body.meta.last_seq, q).toBeGreaterThan(0);
      expect(body.meta.next_after, q).toBe(body.meta.last_seq);
    }
  });

  it("an empty page has an ETag, and revalidating it is a free 304", async () => {
    const end = await latest();
    const empty = await getJson(`/v1/changes?after=${end + 1000}`);
    expect(empty.body.data).toEqual([]);
    expect(empty.res.headers.get("cache-control")).toBe("private, no-cache");
    const again = await getJson(`/v1/changes?after=${end + 1000}`, { "if-none-match": empty.res.headers.get("etag")! });
    expect(again.res.status).toBe(304);
    expect(again.res.headers.get("x-credits-cost")).toBe("0");
  });

  it("bad kinds and times are 400 with the valid values", async () => {
    const bad = await getJson("/v1/changes?kind=CARD,NOPE");
    expect(bad.res.status).toBe(400);
    expect(bad.body.error.details.valid_values).toEqual(["CARD", "SET", "SEALED", "PRICE", "IMAGE"]);
    expect((await getJson("/v1/changes?since=yesterday")).res.status).toBe(400);
  });

  it("paging while concurrent writers append: every row exactly once, in seq order", async () => {
    const start = await latest();
    const db = await getDb();
    const tag = `w${Date.now()}`;
    let writing = true;
    // Slow writers: each takes its seq numbers, waits inside its transaction, then commits,
    // which is when a reader without the ordering lock would skip a row for good.
    const slow = (w: number) => db.transaction(async (tx) => {
      await tx.execute(lockChangeFeed);
      await tx.execute(sql`insert into changes (kind, entity_id, op) values ('PRICE', ${`${tag}-s${w}-a`}, 'updated'), ('PRICE', ${`${tag}-s${w}-b`}, 'updated')`);
      await tx.execute(sql`select pg_sleep(${Math.random() * 0.02})`);
    });
    const writers = Promise.all(Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; i < 8; i++) {
        if (i % 2) await slow(w * 100 + i);
        else await recordPriceChanges([{ kind: "card", id: `${tag}-f${w}-${i}` }]);
      }
    })).finally(() => { writing = false; });
    const seen: { seq: number; id: string }[] = [];
    let after = start;
    for (;;) {
      const stillWriting = writing;
      const { body } = await getJson(`/v1/changes?after=${after}&kind=PRICE&limit=5`);
      seen.push(...body.data.map((c: any) => ({ seq: c.seq, id: c.id })));
      after = body.meta.next_after;
      if (!stillWriting && !body.meta.has_more) break;
    }
    await writers;
    const mine = seen.filter((s) => s.id.startsWith(tag));
    expect(mine).toHaveLength(6 * 4 * 2 + 6 * 4);
    expect(new Set(mine.map((s) => s.id)).size).toBe(mine.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.seq).toBeGreaterThan(seen[i - 1]!.seq);
  });
});
