import { createHash } from "node:crypto";
import { Readable, Transform } from "node:stream";
import { createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import type { Progress } from "@/lib/jobs/progress";
import { storage } from "@/lib/storage";
import { BULK_TYPES, bulkRows, type BulkType } from "./export";

// build-bulk: one gzip NDJSON file per type, streamed from the database through gzip into
// storage, hashed on the way. A file replaces the previous one of its type once complete.

export type BuiltFile = { type: BulkType; name: string; size: number; sha256: string; rows: number };

export async function buildBulk(p: Progress, types: readonly BulkType[] = BULK_TYPES, day = new Date().toISOString().slice(0, 10)): Promise<BuiltFile[]> {
  const store = await storage();
  const out: BuiltFile[] = [];
  for (const type of types) {
    p.phase(type);
    const name = `${type}-${day}.ndjson.gz`;
    const key = `bulk/${name}`;
    let count = 0;
    const lines = Readable.from((async function* () {
      for await (const row of bulkRows(type)) {
        count++;
        p.tick();
        yield JSON.stringify(row) + "\n";
      }
    })());
    const hash = createHash("sha256");
    const hashed = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const { size } = await store.put(key, lines.pipe(createGzip()).pipe(hashed), "application/gzip");
    const file = { type, name, size, sha256: hash.digest("hex"), rows: count };
    const [previous] = await rows<{ storage_key: string }>(sql`select storage_key from bulk_files where type = ${type}`);
    await rows(sql`insert into bulk_files (type, name, storage_key, size, sha256, rows, updated_at)
      values (${type}, ${name}, ${key}, ${size}, ${file.sha256}, ${count}, now())
      on conflict (type) do update set name = excluded.name, storage_key = excluded.storage_key, size = excluded.size,
        sha256 = excluded.sha256, rows = excluded.rows, updated_at = now()`);
    if (previous && previous.storage_key !== key) await store.remove(previous.storage_key);
    out.push(file);
  }
  return out;
}
