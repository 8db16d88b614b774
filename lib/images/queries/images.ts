import { sql } from "drizzle-orm";
import { getDb, rows } from "@/lib/db/client";
import { lockChangeFeed } from "@/lib/changes/lock";
import { bumpCatalogVersion } from "@/lib/catalog/queries/sync";
import { catalogChanged } from "@/lib/catalog/version";

// The images table's reads and writes for the images and render-faces jobs and the image route.

export type StoredImage = { owner_id: string; face: string; size: string; storage_key: string; origin: string; width: number; height: number; sha256: string };

/** Records stored files; a row that named only an upstream URL keeps it. */
export async function saveStoredImages(items: StoredImage[]): Promise<void> {
  if (!items.length) return;
  const col = <K extends keyof StoredImage>(k: K) => sql.param(items.map((i) => i[k]));
  await rows(sql`
    insert into images (owner_kind, owner_id, face, size, storage_key, origin, width, height, sha256, attempts, last_error, retry_at)
    select 'card', o, f, s, k, org, w, h, sha, 0, null, null
    from unnest(${col("owner_id")}::text[], ${col("face")}::text[], ${col("size")}::text[], ${col("storage_key")}::text[],
      ${col("origin")}::text[], ${col("width")}::int[], ${col("height")}::int[], ${col("sha256")}::text[]) as t(o, f, s, k, org, w, h, sha)
    on conflict (owner_kind, owner_id, face, size) do update set storage_key = excluded.storage_key, origin = excluded.origin,
      width = excluded.width, height = excluded.height, sha256 = excluded.sha256, attempts = 0, last_error = null, retry_at = null,
      updated_at = now()`);
}

/**
 * One IMAGE change per card whose stored files changed, and a new catalogue version with it:
 * the cards' cached answers (include=images) are stale from this commit.
 */
export async function recordImageChanges(cardIds: string[]): Promise<void> {
  if (!cardIds.length) return;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(lockChangeFeed);
    await tx.execute(sql`insert into changes (kind, entity_id, op, fields)
      select 'IMAGE', id, 'updated', array['images'] from unnest(${sql.param(cardIds)}::text[]) as t(id)`);
    await bumpCatalogVersion(tx);
  });
  catalogChanged();
}

export type Download = { owner_id: string; source_url: string; attempts: number };

/** Cards whose front has an upstream URL but no stored file, due for a (re)try: the largest URL of each. */
export async function dueDownloads(limit: number): Promise<Download[]> {
  return rows<Download>(sql`
    select distinct on (owner_id) owner_id, source_url, attempts from images
    where owner_kind = 'card' and face = 'FRONT' and source_url is not null
      and (storage_key is null or origin = 'rendered') and (retry_at is null or retry_at <= now())
    order by owner_id, case size when 'LARGE' then 0 when 'NORMAL' then 1 else 2 end
    limit ${limit}`);
}

/** A failed download: tried again after 1, 2, 4 ... hours, at most a week later. */
export async function failDownload(cardId: string, error: string): Promise<void> {
  await rows(sql`update images set attempts = attempts + 1, last_error = ${error.slice(0, 300)},
      retry_at = now() + least(interval '1 hour' * power(2, attempts), interval '7 days'), updated_at = now()
    where owner_kind = 'card' and owner_id = ${cardId} and face = 'FRONT' and source_url is not null`);
}

export type FaceRow = {
  id: string; name: string; hp: number | null; number: string; set_code: string; supertype: string | null; types: string[];
  rarity: string | null; attacks: string[];
};

/** What the renderer draws from: name, HP, number, set, types and attack names. */
const FACE_SELECT = sql`select c.id, c.name, c.hp, c.number, s.id as set_code, c.supertype, c.types, c.rarity,
  coalesce((select array_agg(a->>'name') from jsonb_array_elements(coalesce(c.attrs->'attacks', '[]'::jsonb)) a), '{}') as attacks
  from cards c join sets s on s.id = c.set_id`;

/** Cards with no stored front at all (rendered faces fill only those), after `after` in id order. */
export async function cardsWithoutFace(after: string, limit: number): Promise<FaceRow[]> {
  return rows<FaceRow>(sql`
    ${FACE_SELECT}
    where c.deleted_at is null and c.id > ${after}
      and not exists (select 1 from images i where i.owner_kind = 'card' and i.owner_id = c.id and i.face = 'FRONT' and i.storage_key is not null)
    order by c.id limit ${limit}`);
}

/** The card's face as the renderer needs it, stored or not. */
export async function faceRow(cardId: string): Promise<FaceRow | undefined> {
  const [r] = await rows<FaceRow>(sql`
    ${FACE_SELECT} where c.id = ${cardId} and c.deleted_at is null`);
  return r;
}

export async function storedImage(cardId: string, face: string, size: string): Promise<{ storage_key: string; sha256: string } | undefined> {
  const [r] = await rows<{ storage_key: string; sha256: string }>(sql`
    select storage_key, sha256 from images where owner_kind = 'card' and owner_id = ${cardId} and face = ${face} and size = ${size}
      and storage_key is not null`);
  return r;
}

export type IndexSource = { id: string; origin: string | null; sha256: string | null; storage_key: string | null };

/** Every live card in id order with its real stored front, if any (downloads and scans, not rendered faces). */
export async function indexSources(): Promise<IndexSource[]> {
  return rows<IndexSource>(sql`
    select c.id, i.origin, i.sha256, i.storage_key from cards c
    left join lateral (select origin, sha256, storage_key from images i
      where i.owner_kind = 'card' and i.owner_id = c.id and i.face = 'FRONT' and i.size = 'NORMAL'
        and i.storage_key is not null and i.origin <> 'rendered' limit 1) i on true
    where c.deleted_at is null order by c.id`);
}
