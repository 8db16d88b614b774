import { getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import { lockChangeFeed } from "@/lib/changes/lock";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";
import { changes, images } from "@/lib/db/schema";
import { snake } from "@/lib/util/text";

// Diff-and-upsert of one table against a full upstream snapshot. A row is written only when
// its content hash differs, so a re-run with no upstream change writes nothing at all.

export type ChangeKind = "CARD" | "SET" | "SEALED" | "PRICE" | "IMAGE";
export type ChangeRow = { kind: ChangeKind; entityId: string; op: "created" | "updated" | "deleted"; fields: string[] | null };
export type SyncCounts = { created: number; updated: number; deleted: number; unchanged: number };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const BATCH = 400;

export async function existingHashes(tx: Tx | Db, table: PgTable, key: PgColumn) {
  const res = (await tx.execute(
    sql`select ${key} as key, content_hash as hash, deleted_at is not null as deleted from ${table}`,
  )) as unknown as { rows: { key: string; hash: string; deleted: boolean }[] };
  return new Map(res.rows.map((r) => [String(r.key), { hash: r.hash, deleted: r.deleted }]));
}

/** JSON with object keys sorted: jsonb hands objects back in its own key order. */
function stableJson(v: unknown): string {
  if (v === null || v === undefined || typeof v !== "object") return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(",")}}`;
}

// Columns that only serve search or bookkeeping: a change there is reported through the
// field they derive from, or not at all.
const HIDDEN = new Set(["idLower", "nameFolded", "nameTerms", "nameKeys", "typesLc", "subtypesLc", "rarityLc", "supertypeLc", "artistSlug", "contentHash"]);
const PUBLIC_NAME: Record<string, string> = { nationalDex: "national_pokedex_numbers", setId: "set", seriesId: "series" };

/** The API field names whose value differs between the stored and the new row. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(after)) {
    if (HIDDEN.has(k) || stableJson(before[k]) === stableJson(v)) continue;
    if (k === "attrs" && v && typeof v === "object") {
      // Gameplay and marketplace details live in one column; name the details that moved.
      const old = (before[k] ?? {}) as Record<string, unknown>;
      const now = v as Record<string, unknown>;
      for (const a of new Set([...Object.keys(old), ...Object.keys(now)])) {
        if (stableJson(old[a]) !== stableJson(now[a])) out.add(a);
      }
      continue;
    }
    out.add(PUBLIC_NAME[k] ?? snake(k));
  }
  return [...out];
}

export async function syncTable<R extends Record<string, unknown>>(
  tx: Tx,
  opts: {
    table: PgTable;
    key: PgColumn;
    keyOf: (r: R) => string;
    hashOf: (r: R) => string;
    rows: R[];
    kind?: ChangeKind;
    now: string;
    onRows?: (n: number) => void;
  },
): Promise<{ counts: SyncCounts; changes: ChangeRow[] }> {
  const { table, key, keyOf, hashOf, rows, kind, now } = opts;
  const existing = await existingHashes(tx, table, key);
  const created: R[] = [];
  const updated: R[] = [];
  const changeRows: ChangeRow[] = [];
  const seen = new Set<string>();

  for (const r of rows) {
    const k = keyOf(r);
    seen.add(k);
    const old = existing.get(k);
    if (!old) created.push(r);
    else if (old.hash !== hashOf(r) || old.deleted) updated.push(r);
  }
  const gone = [...existing].filter(([k, v]) => !seen.has(k) && !v.deleted).map(([k]) => k);

  if (kind) {
    for (const r of created) changeRows.push({ kind, entityId: keyOf(r), op: "created", fields: null });
    const before = await loadRows(tx, table, key, updated.map(keyOf));
    for (const r of updated) {
      const prev = before.get(keyOf(r));
      changeRows.push({
        kind, entityId: keyOf(r), op: "updated",
        fields: prev ? changedFields(prev, r).filter((f) => f !== "contentHash") : null,
      });
    }
    for (const k of gone) changeRows.push({ kind, entityId: k, op: "deleted", fields: null });
  }

  const writes = [...created, ...updated];
  const cols = getTableColumns(table) as Record<string, PgColumn>;
  const set: Record<string, SQL> = {};
  for (const [prop, col] of Object.entries(cols)) {
    if (prop === "createdAt" || col === key) continue;
    set[prop] = sql.raw(`excluded."${col.name}"`);
  }
  for (let i = 0; i < writes.length; i += BATCH) {
    const batch = writes.slice(i, i + BATCH).map((r) => ({
      ...r, contentHash: hashOf(r), updatedAt: now, deletedAt: null, createdAt: now,
    }));
    await tx.insert(table).values(batch as never).onConflictDoUpdate({ target: key, set });
    opts.onRows?.(batch.length);
  }
  for (let i = 0; i < gone.length; i += BATCH) {
    await tx
      .update(table)
      .set({ deletedAt: now, updatedAt: now } as never)
      .where(inArray(key, gone.slice(i, i + BATCH)));
  }
  return {
    counts: { created: created.length, updated: updated.length, deleted: gone.length, unchanged: rows.length - writes.length },
    changes: changeRows,
  };
}

async function loadRows(tx: Tx, table: PgTable, key: PgColumn, keys: string[]) {
  const out = new Map<string, Record<string, unknown>>();
  const keyProp = Object.entries(getTableColumns(table)).find(([, c]) => c === key)![0];
  for (let i = 0; i < keys.length; i += BATCH) {
    const found = (await tx.select().from(table as never).where(inArray(key, keys.slice(i, i + BATCH)))) as Record<string, unknown>[];
    for (const r of found) out.set(String(r[keyProp]), r);
  }
  return out;
}

export async function appendChanges(tx: Tx, rows: ChangeRow[], now: string): Promise<void> {
  if (rows.length) await tx.execute(lockChangeFeed);
  for (let i = 0; i < rows.length; i += 1000) {
    await tx.insert(changes).values(rows.slice(i, i + 1000).map((r) => ({ ...r, at: now })));
  }
}

type ImageInput = { ownerKind: string; ownerId: string; face: string; size: string; sourceUrl: string };

/** Upstream image URLs; one IMAGE change per owner whose URLs appeared or moved. */
export async function syncImageUrls(tx: Tx, rows: ImageInput[]): Promise<{ written: number; changes: ChangeRow[] }> {
  const res = (await tx.execute(
    sql`select owner_kind, owner_id, face, size, source_url from ${images}`,
  )) as unknown as { rows: { owner_kind: string; owner_id: string; face: string; size: string; source_url: string | null }[] };
  const keyOf = (r: { ownerKind: string; ownerId: string; face: string; size: string }) =>
    `${r.ownerKind}\u0000${r.ownerId}\u0000${r.face}\u0000${r.size}`;
  const existing = new Map(
    res.rows.map((r) => [keyOf({ ownerKind: r.owner_kind, ownerId: r.owner_id, face: r.face, size: r.size }), r.source_url]),
  );
  const writes = rows.filter((r) => existing.get(keyOf(r)) !== r.sourceUrl);
  for (let i = 0; i < writes.length; i += 1000) {
    await tx
      .insert(images)
      .values(writes.slice(i, i + 1000))
      .onConflictDoUpdate({
        target: [images.ownerKind, images.ownerId, images.face, images.size],
        set: { sourceUrl: sql`excluded.source_url`, updatedAt: sql`now()` },
      });
  }
  const byOwner = new Map<string, { kindEntity: string; fields: string[]; created: boolean }>();
  for (const w of writes) {
    const k = `${w.ownerKind}:${w.ownerId}`;
    const entry = byOwner.get(k) ?? { kindEntity: w.ownerId, fields: [], created: true };
    entry.fields.push(`${w.face}/${w.size}`);
    if (existing.has(keyOf(w))) entry.created = false;
    byOwner.set(k, entry);
  }
  return {
    written: writes.length,
    changes: [...byOwner.values()].map((e) => ({
      kind: "IMAGE", entityId: e.kindEntity, op: e.created ? "created" : "updated", fields: e.fields,
    })),
  };
}

/** Rebuilds the word dictionary behind wildcard name searches; only when cards changed. */
export async function rebuildCardTerms(tx: Tx): Promise<void> {
  await tx.execute(sql`delete from card_terms`);
  await tx.execute(sql`insert into card_terms (term) select distinct unnest(name_terms) from cards where deleted_at is null`);
}

/** Fresh planner statistics after a bulk change, so the first searches get good plans. */
export async function analyzeCatalog(db: Db): Promise<void> {
  await db.execute(sql`analyze cards, sets, series, artists, sealed_products, card_terms, images, changes`);
}

/** The catalogue changed: cached answers everywhere are stale from this transaction's commit. */
export async function bumpCatalogVersion(tx: Tx | Db): Promise<void> {
  await tx.execute(sql`insert into catalog_version (id, version) values (1, 1)
    on conflict (id) do update set version = catalog_version.version + 1`);
}
