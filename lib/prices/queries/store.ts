import { sql } from "drizzle-orm";
import { rows, type Db } from "@/lib/db/client";
import type { RecentPoint, StoredPoint } from "@/lib/db/schema";
import { keyHash, packRecent, unpackRecent } from "./recent";

// Writes of the price store, in batches through unnest: a feed of 100k lines is a few dozen
// statements, not 100k.

export type SeriesRow = {
  key: string; product_kind: string; product_id: string; source: string; variant: string; basis: string; currency: string;
  locale: string | null; condition: string | null; printing: string | null; grading_company: string | null; grading_score: string | null;
  provenance: string; recent: RecentPoint[]; first_as_of: string; last_as_of: string;
};

export type StoredSeries = { id: number; key: string; recent: RecentPoint[]; first_as_of: string; last_as_of: string };
type StoredRow = Omit<StoredSeries, "key" | "recent"> & { key_hash: string; recent: StoredPoint[] };

const CHUNK = 5000;
const chunks = <T>(xs: T[], n = CHUNK): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));
const col = <T, K extends keyof T>(xs: T[], k: K) => sql.param(xs.map((x) => x[k]));

export async function loadSeries(keys: string[], db?: Db): Promise<Map<string, StoredSeries>> {
  const out = new Map<string, StoredSeries>();
  for (const part of chunks(keys)) {
    const byHash = new Map(part.map((k) => [keyHash(k), k]));
    const found = await rows<StoredRow>(sql`
      select id, key_hash::text as key_hash, recent, first_as_of::text as first_as_of, last_as_of::text as last_as_of from price_series
      where key_hash = any(${sql.param([...byHash.keys()])}::uuid[])`, db);
    for (const s of found) {
      const key = byHash.get(s.key_hash)!;
      out.set(key, { id: s.id, key, recent: unpackRecent(s.recent), first_as_of: s.first_as_of, last_as_of: s.last_as_of });
    }
  }
  return out;
}

/** Inserts or updates series; returns every id by key. */
export async function upsertSeries(series: SeriesRow[], db?: Db): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(series)) {
    const recent = sql.param(part.map((s) => JSON.stringify(packRecent(s.recent))));
    const hashes = part.map((s) => keyHash(s.key));
    const byHash = new Map(hashes.map((h, i) => [h, part[i]!.key]));
    const written = await rows<{ id: number; key_hash: string }>(sql`
      insert into price_series (key_hash, product_kind, product_id, source, variant, basis, currency, locale, condition, printing,
        grading_company, grading_score, provenance, recent, first_as_of, last_as_of)
      select k, pk, pid, src, v, b, cur, loc, cond, pr, gc, gs, prov, rec::json, f::date, l::date
      from unnest(${sql.param(hashes)}::uuid[], ${col(part, "product_kind")}::text[], ${col(part, "product_id")}::text[],
        ${col(part, "source")}::text[], ${col(part, "variant")}::text[], ${col(part, "basis")}::text[], ${col(part, "currency")}::text[],
        ${col(part, "locale")}::text[], ${col(part, "condition")}::text[], ${col(part, "printing")}::text[],
        ${col(part, "grading_company")}::text[], ${col(part, "grading_score")}::text[], ${col(part, "provenance")}::text[],
        ${recent}::text[], ${col(part, "first_as_of")}::text[], ${col(part, "last_as_of")}::text[])
        as t(k, pk, pid, src, v, b, cur, loc, cond, pr, gc, gs, prov, rec, f, l)
      on conflict (key_hash) do update set provenance = excluded.provenance, recent = excluded.recent,
        first_as_of = excluded.first_as_of, last_as_of = excluded.last_as_of, updated_at = now()
      returning id, key_hash::text as key_hash`, db);
    for (const w of written) ids.set(byHash.get(w.key_hash)!, w.id);
  }
  return ids;
}

export type MonthRow = { series_id: number; month: number; amounts: Buffer };

export async function loadMonths(pairs: { series_id: number; month: number }[], db?: Db): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const part of chunks(pairs)) {
    const found = await rows<{ series_id: number; month: number; hex: string }>(sql`
      select m.series_id, m.month, encode(m.amounts, 'hex') as hex from price_months m
      join unnest(${col(part, "series_id")}::int[], ${col(part, "month")}::int[]) as p(s, mo) on m.series_id = p.s and m.month = p.mo`, db);
    for (const f of found) out.set(`${f.series_id}:${f.month}`, Buffer.from(f.hex, "hex"));
  }
  return out;
}

export async function writeMonths(months: MonthRow[], db?: Db, perStatement = 2000): Promise<void> {
  for (const part of chunks(months, perStatement)) {
    await rows(sql`
      insert into price_months (series_id, month, amounts)
      select s, m, decode(h, 'hex') from unnest(${col(part, "series_id")}::int[], ${col(part, "month")}::int[],
        ${sql.param(part.map((r) => r.amounts.toString("hex")))}::text[]) as t(s, m, h)
      on conflict (series_id, month) do update set amounts = excluded.amounts`, db);
  }
}

/** Products that exist (and are not deleted), from `card:<id>` / `sealed:<slug>` references. */
export async function knownProducts(refs: string[], db?: Db): Promise<Map<string, { kind: string; id: string }>> {
  const cardIds = refs.filter((r) => r.startsWith("card:")).map((r) => r.slice(5));
  const sealedIds = refs.filter((r) => r.startsWith("sealed:")).map((r) => r.slice(7));
  const out = new Map<string, { kind: string; id: string }>();
  for (const part of chunks([...new Set(cardIds)])) {
    // Primary or alternate id, case-insensitively: the feed may name either.
    const lower = sql.param(part.map((r) => r.toLowerCase()));
    const found = await rows<{ id: string; id_lower: string; alt: string | null }>(sql`
      select id, id_lower, lower(alt_id) as alt from cards
      where (id_lower = any(${lower}::text[]) or lower(alt_id) = any(${lower}::text[])) and deleted_at is null`, db);
    const byLower = new Map<string, string>();
    for (const f of found) {
      byLower.set(f.id_lower, f.id);
      if (f.alt) byLower.set(f.alt, f.id);
    }
    for (const ref of part) {
      const id = byLower.get(ref.toLowerCase());
      if (id) out.set(`card:${ref}`, { kind: "card", id });
    }
  }
  for (const part of chunks([...new Set(sealedIds)])) {
    const found = await rows<{ ref: string; slug: string }>(sql`
      select r.ref, s.slug from unnest(${sql.param(part)}::text[]) as r(ref)
      join sealed_products s on s.slug = r.ref or lower(s.sku) = lower(r.ref)
      where s.deleted_at is null`, db);
    for (const f of found) out.set(`sealed:${f.ref}`, { kind: "sealed", id: f.slug });
  }
  return out;
}


/** Whether a feed file of this content was applied before. */
export async function feedApplied(sha256: string, db?: Db): Promise<boolean> {
  return (await rows(sql`select 1 from price_feeds where sha256 = ${sha256}`, db)).length > 0;
}

/** The record that a file was applied: written in the file's own transaction, so the two commit together. */
export async function recordFeed(f: { sha256: string; source: string; name: string; rows: number; rejected: number }, db?: Db): Promise<void> {
  await rows(sql`insert into price_feeds (sha256, source, name, rows, rejected) values (${f.sha256}, ${f.source}, ${f.name}, ${f.rows}, ${f.rejected})
    on conflict (sha256) do update set applied_at = now(), rows = excluded.rows, rejected = excluded.rejected`, db);
}
