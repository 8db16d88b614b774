import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

// Where generated files live (bulk exports, and later card images): a local folder by default,
// S3-compatible object storage when S3_BUCKET is set. Both stream, so a file of any size
// passes through in constant memory.

export interface Storage {
  readonly kind: "local" | "s3";
  /** Writes the stream to `key`, replacing what was there only once it is complete. */
  put(key: string, body: Readable, contentType: string): Promise<{ size: number }>;
  /** The object as a stream, or null when it does not exist. */
  get(key: string): Promise<{ body: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

export function localStorage(root: string): Storage {
  const file = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error(`storage key outside the root: ${key}`);
    return p;
  };
  return {
    kind: "local",
    async put(key, body) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.part`;
      await pipeline(body, createWriteStream(tmp));
      await rename(tmp, target);
      return { size: (await stat(target)).size };
    },
    async get(key) {
      try {
        const target = file(key);
        const { size } = await stat(target);
        return { body: createReadStream(target), size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async remove(key) {
      await unlink(file(key)).catch((err) => {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      });
    },
  };
}

const slot = globalThis as unknown as { __storage?: Promise<Storage> };

/** S3_BUCKET (with S3_ENDPOINT, S3_REGION and the AWS_* credentials) → S3; else STORAGE_DIR (./data/storage). */
export function storage(): Promise<Storage> {
  return (slot.__storage ??= (async () => {
    if (process.env.S3_BUCKET) {
      const { s3Storage } = await import("./s3");
      return s3Storage({
        bucket: process.env.S3_BUCKET, endpoint: process.env.S3_ENDPOINT, region: process.env.S3_REGION ?? "us-east-1",
        prefix: process.env.S3_PREFIX ?? "",
      });
    }
    return localStorage(process.env.STORAGE_DIR ?? "./data/storage");
  })());
}

export function resetStorageForTests(): void {
  slot.__storage = undefined;
}

export { Readable };
