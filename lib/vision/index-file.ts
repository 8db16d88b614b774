import { open, mkdir, rename, stat, writeFile } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env";
import { COARSE_LEN, FINE, FINE_LEN, REGION } from "./describe";

// The identification index on disk: one file, written whole and renamed into place, so a
// reader never sees half of one. Layout: "PKVX1\n", a 4-byte JSON length, the JSON (ids,
// what each descriptor was made from), the coarse vectors, the fine grids. Servers keep the
// coarse part in memory and read the few fine grids a search re-ranks from the file.

const MAGIC = Buffer.from("PKVX1\n");

/** Index layout version: 2 added the shared-art groups and printed lines (art.ts); an older file is rebuilt whole. */
export const INDEX_VERSION = 2;

export type IndexMeta = {
  version: number;
  region: typeof REGION;
  fine: typeof FINE;
  built_at: string;
  build_seconds: number;
  ids: string[];
  /** What each descriptor was made from: "art" (the rendered face) or the stored image's sha256. */
  stamps: string[];
  /** How many descriptors came from real images (downloads or scans) rather than rendered faces. */
  real: number;
  /** Per row, its artwork's group: rows of one group share their art (art.ts) and differ in their printing. */
  art?: number[];
  /** Per row, the printing's line as the face prints it and its language mark: "MEW 6/165\tEN". */
  lines?: string[];
};

export type IndexData = { meta: IndexMeta; coarse: Int8Array; fine: Int8Array };

// turbopackIgnore: a path from the environment, not a file of the project for the build to trace.
export const indexPath = () => path.resolve(/*turbopackIgnore: true*/ env().VISION_INDEX_DIR, "index.bin");

export async function writeIndex(data: IndexData, file = indexPath()): Promise<number> {
  await mkdir(path.dirname(file), { recursive: true });
  const json = Buffer.from(JSON.stringify(data.meta));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const body = Buffer.concat([MAGIC, len, json, Buffer.from(data.coarse.buffer, data.coarse.byteOffset, data.coarse.byteLength),
    Buffer.from(data.fine.buffer, data.fine.byteOffset, data.fine.byteLength)]);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, body);
  await rename(tmp, file);
  return body.length;
}

/** An open index: the coarse vectors in memory, the fine grids read from the file on demand. */
export type OpenIndex = {
  meta: IndexMeta;
  coarse: Int8Array;
  mtimeMs: number;
  fileBytes: number;
  fine: (row: number) => Promise<Int8Array>;
  /** Every fine grid in one read, for an incremental rebuild that keeps the unchanged ones. */
  allFine: () => Promise<Int8Array>;
  close: () => Promise<void>;
};

export async function openIndex(file = indexPath()): Promise<OpenIndex | null> {
  let fh: FileHandle;
  try {
    fh = await open(/*turbopackIgnore: true*/ file, "r");
  } catch {
    return null;
  }
  const st = await fh.stat();
  const head = Buffer.alloc(MAGIC.length + 4);
  await fh.read(head, 0, head.length, 0);
  if (!head.subarray(0, MAGIC.length).equals(MAGIC)) {
    await fh.close();
    throw new Error(`${file} is not an identification index`);
  }
  const jsonLen = head.readUInt32LE(MAGIC.length);
  const json = Buffer.alloc(jsonLen);
  await fh.read(json, 0, jsonLen, head.length);
  const meta = JSON.parse(json.toString()) as IndexMeta;
  const n = meta.ids.length;
  const coarse = new Int8Array(n * COARSE_LEN);
  const coarseAt = head.length + jsonLen;
  await fh.read(new Uint8Array(coarse.buffer), 0, coarse.byteLength, coarseAt);
  const fineAt = coarseAt + coarse.byteLength;
  return {
    meta, coarse, mtimeMs: st.mtimeMs, fileBytes: st.size,
    fine: async (row) => {
      const out = new Int8Array(FINE_LEN);
      await fh.read(new Uint8Array(out.buffer), 0, FINE_LEN, fineAt + row * FINE_LEN);
      return out;
    },
    allFine: async () => {
      const out = new Int8Array(n * FINE_LEN);
      await fh.read(new Uint8Array(out.buffer), 0, out.byteLength, fineAt);
      return out;
    },
    close: () => fh.close(),
  };
}

/** The file's modification time, or 0 when there is none. */
export async function indexMtime(file = indexPath()): Promise<number> {
  try {
    return (await stat(/*turbopackIgnore: true*/ file)).mtimeMs;
  } catch {
    return 0;
  }
}
