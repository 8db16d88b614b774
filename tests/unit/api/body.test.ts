import { describe, expect, it } from "vitest";
import { MAX_JSON_BODY, MULTIPART_OVERHEAD, readBounded, readJson, readUpload } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";

// The pipeline's body reading (step 5) on streams it can watch: how much of a body is pulled,
// and whether the source is told to stop.

const refuse = () => new ApiError("PAYLOAD_TOO_LARGE", "too large", { max_bytes: 10 });

/** A body of `chunks` chunks of `size` bytes, produced on demand, that records what was asked of it. */
function source(chunks: number, size: number) {
  const seen = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (seen.pulls === chunks) return c.close();
      seen.pulls++;
      c.enqueue(new Uint8Array(size).fill(0x61));
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

const post = (body: ReadableStream<Uint8Array> | BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://api.test/v1/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("readBounded", () => {
  it("reads a chunked body whole when it stays within the limit", async () => {
    const { stream, seen } = source(4, 25);
    const bytes = await readBounded(post(stream), 100, refuse);
    expect(bytes.byteLength).toBe(100);
    expect(seen).toEqual({ pulls: 4, cancelled: false });
  });

  it("stops at the first chunk past the limit and cancels the source", async () => {
    const { stream, seen } = source(1000, 25);
    const err = await refusal(readBounded(post(stream), 100, refuse));
    expect(err.code).toBe("PAYLOAD_TOO_LARGE");
    expect(seen).toEqual({ pulls: 5, cancelled: true });
  });

  it("refuses a declared Content-Length over the limit without reading anything", async () => {
    const { stream, seen } = source(1000, 25);
    const err = await refusal(readBounded(post(stream, { "content-length": "101" }), 100, refuse));
    expect(err.code).toBe("PAYLOAD_TOO_LARGE");
    expect(seen.pulls).toBe(0);
  });

  it("an absent body is empty", async () => {
    expect((await readBounded(post(null), 100, refuse)).byteLength).toBe(0);
  });
});

describe("readJson", () => {
  it("parses a body within MAX_JSON_BODY", async () => {
    expect(await readJson(post(JSON.stringify({ a: 1 })))).toEqual({ a: 1 });
  });

  it("refuses a chunked body past MAX_JSON_BODY with max_bytes, after reading just past it", async () => {
    const { stream, seen } = source(2000, 1000);
    const err = await refusal(readJson(post(stream)));
    expect(err.code).toBe("PAYLOAD_TOO_LARGE");
    expect(err.details).toEqual({ max_bytes: MAX_JSON_BODY });
    expect(seen.pulls).toBe(MAX_JSON_BODY / 1000 + 1);
    expect(seen.cancelled).toBe(true);
  });
});

describe("readUpload", () => {
  const maxBytes = 1000;
  const form = (file: Uint8Array) => {
    const f = new FormData();
    f.append("image", new Blob([new Uint8Array(file)], { type: "image/png" }), "a.png");
    return new Request("http://api.test/v1/x", { method: "POST", body: f });
  };
  const png = (size: number) => {
    const b = new Uint8Array(size);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    return b;
  };

  it("parses the image field from the bounded bytes and sniffs its type", async () => {
    const upload = await readUpload(form(png(maxBytes)), maxBytes);
    expect(upload.contentType).toBe("image/png");
    expect(upload.bytes.length).toBe(maxBytes);
  });

  it("a file over the limit is 413 even within the multipart allowance", async () => {
    const err = await refusal(readUpload(form(png(maxBytes + 1)), maxBytes));
    expect(err.code).toBe("PAYLOAD_TOO_LARGE");
    expect(err.details).toEqual({ max_bytes: maxBytes });
  });

  it("a chunked multipart body past limit and allowance is 413 without reading the rest", async () => {
    const { stream, seen } = source(10_000, 1000);
    const err = await refusal(readUpload(post(stream, { "content-type": "multipart/form-data; boundary=x" }), maxBytes));
    expect(err.details).toEqual({ max_bytes: maxBytes });
    expect(seen.pulls).toBe(Math.floor((maxBytes + MULTIPART_OVERHEAD) / 1000) + 1);
    expect(seen.cancelled).toBe(true);
  });

  it("not multipart, or not a multipart that parses: 400 INVALID_IMAGE", async () => {
    expect((await refusal(readUpload(post("x", { "content-type": "image/png" }), maxBytes))).code).toBe("INVALID_IMAGE");
    expect((await refusal(readUpload(post("garbage", { "content-type": "multipart/form-data; boundary=x" }), maxBytes))).code).toBe("INVALID_IMAGE");
  });
});
