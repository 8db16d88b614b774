import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBulk } from "@/lib/bulk/build";
import { closeDb } from "@/lib/db/client";
import { progress } from "@/lib/jobs/progress";
import { resetStorageForTests, storage } from "@/lib/storage";
import { call } from "../helpers/api";
import { ensureDatabase } from "../helpers/db";

// build-bulk to S3-compatible storage, on a database of its own (empty: the upload and the
// download are what is under test, not the rows).

const DB = "pokeprice_bulk_test";
const objects = new Map<string, Buffer>();
let server: Server;
let previous: string | undefined;

beforeAll(async () => {
  // A minimal S3: path-style PUT, HEAD, GET and DELETE of whole objects.
  server = createServer((req, res) => {
    const key = decodeURIComponent(new URL(req.url!, "http://s3").pathname);
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "PUT") {
        objects.set(key, Buffer.concat(chunks));
        res.writeHead(200, { etag: '"x"' }).end();
      } else if (req.method === "GET" || req.method === "HEAD") {
        const o = objects.get(key);
        if (!o) return void res.writeHead(404, { "content-type": "application/xml" }).end(req.method === "GET" ? "<Error><Code>NoSuchKey</Code></Error>" : undefined);
        res.writeHead(200, { "content-length": o.length, "content-type": "application/gzip", etag: '"x"' }).end(req.method === "GET" ? o : undefined);
      } else if (req.method === "DELETE") {
        objects.delete(key);
        res.writeHead(204).end();
      } else res.writeHead(405).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  previous = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = await ensureDatabase(DB, { fresh: true });
  Object.assign(process.env, {
    S3_BUCKET: "bulk-test", S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test",
  });
  resetStorageForTests();
});

afterAll(async () => {
  delete process.env.S3_BUCKET;
  resetStorageForTests();
  await closeDb();
  process.env.DATABASE_URL = previous;
  await new Promise((r) => server.close(r));
});

describe("bulk files on S3-compatible storage", () => {
  it("build-bulk uploads to the bucket, replaces the previous file, and the download streams it back", async () => {
    expect((await storage()).kind).toBe("s3");
    await buildBulk(progress("test", { quiet: true }), ["sets"], "2026-01-01");
    const [built] = await buildBulk(progress("test", { quiet: true }), ["sets"], "2026-01-02");
    expect([...objects.keys()]).toEqual(["/bulk-test/bulk/sets-2026-01-02.ndjson.gz"]);
    expect(objects.get("/bulk-test/bulk/sets-2026-01-02.ndjson.gz")!.length).toBe(built!.size);
    const res = await call("GET", "/v1/bulk/sets");
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(built!.sha256);
  });
});
