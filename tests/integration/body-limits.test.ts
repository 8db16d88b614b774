import http from "node:http";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount, roomyKey } from "../helpers/accounts";
import { cardPhoto, SAMPLE_CARD } from "../helpers/images";
import { startLeanServer, type Proc } from "../helpers/servers";

// Bodies through a real server (server/lean.ts), sent chunked so that no Content-Length warns
// the server, and never finished: the last chunk is held back until the answer has arrived. An
// answer therefore proves the server decided without waiting for the whole body: a caller
// without a key or plan is refused before any of it is read, an oversized one as soon as its
// limit is passed.

const MB = 1_000_000;
const UPLOAD_LIMIT = 10_000_000;
const JSON_LIMIT = 1_000_000;

let app: Proc;

beforeAll(async () => {
  app = await startLeanServer({ DATABASE_URL: process.env.DATABASE_URL! });
}, 90_000);

afterAll(async () => {
  await app?.stop();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: any; sent: number };

/**
 * POSTs `head` then filler up to `total` bytes, chunked, honouring backpressure, and never sends
 * the body's end. Resolves with the answer and how many bytes the client had handed over by
 * then; rejects when no answer comes within `ms` (the server is waiting for the rest). With
 * `holdAt`, the client stops there for up to 2 s before going on: a server that answers without
 * reading the body answers then, whatever the machine's load. Without it, a server that drops
 * the rest of a refused body (as ours do) could take the whole of it before a loaded client
 * even saw the answer.
 */
function postHeld(path: string, headers: Record<string, string>, total: number, head: Buffer = Buffer.alloc(0), ms = 10_000, holdAt = Infinity): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } });
    const filler = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let answered = false;
    let held = false;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${ms} ms after ${sent} bytes: the server waits for the whole body`));
    }, ms);
    const pump = () => {
      while (!answered && sent < total) {
        if (!held && sent >= holdAt) {
          held = true;
          return void setTimeout(pump, 2_000);
        }
        const piece = sent === 0 && head.length ? head : filler.subarray(0, Math.min(filler.length, total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
    };
    req.on("response", (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString("utf8")), sent });
      });
    });
    // Once answered, the server may drop the connection under the rest of the body.
    req.on("error", (err) => {
      if (answered) return;
      clearTimeout(timer);
      reject(err);
    });
    pump();
  });
}

/**
 * POSTs `head` then filler up to `total` bytes, chunked, all of it whatever the server answers
 * meanwhile (as curl does). Resolves once the answer has arrived and the connection is over:
 * the body sent whole, or the server closed it. Rejects after `ms`: a server that stopped
 * reading and kept the connection leaves such a client blocked on its upload for ever.
 */
function postAll(path: string, headers: Record<string, string>, total: number, head: Buffer, ms = 10_000): Promise<Answer & { closedBy: "server" | "client" }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } });
    const filler = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let answer: Answer | undefined;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`after ${ms} ms: ${answer ? "answered" : "no answer"}, ${sent} bytes sent, the connection still open`));
    }, ms);
    const done = (closedBy: "server" | "client") => {
      if (!answer) return;
      clearTimeout(timer);
      resolve({ ...answer, closedBy });
    };
    const pump = () => {
      while (sent < total) {
        const piece = sent === 0 ? head : filler.subarray(0, Math.min(filler.length, total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      req.end();
    };
    req.on("response", (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => {
        answer = { status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString("utf8")), sent };
        if (sent >= total && req.writableFinished) done("client");
      });
    });
    req.on("finish", () => done("client"));
    req.on("close", () => done("server"));
    req.on("error", () => undefined);
    pump();
  });
}

/** A chunked POST sent whole: the ordinary case, for comparison. */
function postChunked(path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } });
    req.on("response", (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString("utf8")), sent: body.length }));
    });
    req.on("error", reject);
    for (let at = 0; at < body.length; at += 256 * 1024) req.write(body.subarray(at, at + 256 * 1024));
    req.end();
  });
}

const BOUNDARY = "----pokeprice-test-boundary";
const multipart = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
const partHead = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);

function form(file: Buffer): Buffer {
  return Buffer.concat([partHead, file, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

function expectRefusal(a: Answer, status: number, code: string) {
  expect({ status: a.status, code: a.body.error?.code }).toEqual({ status, code });
  expect(a.body.error.request_id).toBe(a.headers["x-request-id"]);
}

describe("an upload from a caller the route refuses is not read", () => {
  it.each(["/v1/vision/identify", "/v1/centering/measure"])("%s: 11 MB chunked without a key is 401 at once", async (path) => {
    const a = await postHeld(path, multipart, 11 * MB, partHead, 10_000, 1 * MB);
    expectRefusal(a, 401, "MISSING_API_KEY");
    expect(a.headers["x-credits-cost"]).toBe("0");
    // Answered while the client held its body at 1 MB: the server did not wait to read it.
    expect(a.sent).toBeLessThan(2 * MB);
  });

  it("an unconfirmed trial is refused identify (PLAN_REQUIRED) before its 11 MB are read", async () => {
    const trial = await makeAccount();
    const a = await postHeld("/v1/vision/identify", { ...multipart, "x-api-key": trial.key }, 11 * MB, partHead, 10_000, 1 * MB);
    expectRefusal(a, 403, "PLAN_REQUIRED");
    expect(a.body.error.message).toMatch(/^Confirm your email/);
    expect(a.sent).toBeLessThan(2 * MB);
  });

  it("a strict query error is still answered first, also unread", async () => {
    const a = await postHeld("/v1/vision/identify?top_k=99", { ...multipart, "x-api-key": await roomyKey() }, 11 * MB, partHead);
    expectRefusal(a, 400, "INVALID_PARAMETER");
  });
});

describe("an oversized body is refused as soon as its limit is passed", () => {
  it.each(["/v1/vision/identify", "/v1/centering/measure"])("%s: 11 MB chunked with a key is 413 with max_bytes", async (path) => {
    const a = await postHeld(path, { ...multipart, "x-api-key": await roomyKey() }, 11 * MB, partHead);
    expectRefusal(a, 413, "PAYLOAD_TOO_LARGE");
    expect(a.body.error.details).toEqual({ max_bytes: UPLOAD_LIMIT });
    expect(a.headers["x-credits-cost"]).toBe("0");
  });

  it.each(["/v1/vision/identify", "/v1/centering/grade"])("%s: a client that sends its whole oversized body anyway gets the 413, and the connection ends", async (path) => {
    const upload = path.includes("identify");
    const headers = { ...(upload ? multipart : { "content-type": "application/json" }), "x-api-key": await roomyKey() };
    const a = await postAll(path, headers, upload ? 12 * MB : 3 * MB, upload ? partHead : Buffer.from('{"front":"'));
    expectRefusal(a, 413, "PAYLOAD_TOO_LARGE");
  });

  it("2 MB of chunked JSON to POST /v1/accounts/free is 413", async () => {
    const a = await postHeld("/v1/accounts/free", { "content-type": "application/json", "idempotency-key": randomUUID() }, 2 * MB, Buffer.from('{"email":"'));
    expectRefusal(a, 413, "PAYLOAD_TOO_LARGE");
    expect(a.body.error.details).toEqual({ max_bytes: JSON_LIMIT });
  });

  it("2 MB of chunked JSON to a keyed POST is 413 with a key, 401 without", async () => {
    const json = { "content-type": "application/json" };
    const keyed = await postHeld("/v1/centering/grade", { ...json, "x-api-key": await roomyKey() }, 2 * MB, Buffer.from('{"front":"'));
    expectRefusal(keyed, 413, "PAYLOAD_TOO_LARGE");
    expect(keyed.body.error.details).toEqual({ max_bytes: JSON_LIMIT });
    const anonymous = await postHeld("/v1/centering/grade", json, 2 * MB, Buffer.from('{"front":"'));
    expectRefusal(anonymous, 401, "MISSING_API_KEY");
  });
});

describe("bodies within their limits, chunked", () => {
  it("a photo is read whole and identified", async () => {
    const a = await postChunked("/v1/vision/identify", { ...multipart, "x-api-key": await roomyKey() }, form(await cardPhoto(SAMPLE_CARD, "body-limits")));
    expect(a.status).toBe(200);
    expect(a.body.data[0].card.id).toBe("base1-4");
  });

  it("a file just over the upload limit, within the multipart allowance, is still 413", async () => {
    const file = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(UPLOAD_LIMIT + 10)]);
    const a = await postChunked("/v1/vision/identify", { ...multipart, "x-api-key": await roomyKey() }, form(file));
    expectRefusal(a, 413, "PAYLOAD_TOO_LARGE");
  });

  it("JSON is read whole and validated", async () => {
    const a = await postChunked("/v1/centering/grade", { "content-type": "application/json", "x-api-key": await roomyKey() },
      Buffer.from(JSON.stringify({ front: { left_right: "55/45", top_bottom: 50 } })));
    expect(a.status).toBe(200);
    expect(a.body.data.front).toEqual({ left_right: "55/45", top_bottom: "50/50" });
  });
});
