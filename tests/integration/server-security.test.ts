import { spawn } from "node:child_process";
import net from "node:net";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { startLeanServer, type Proc } from "../helpers/servers";

// The app's server, over a real socket: the caller's address comes from the socket (or from a
// configured number of proxy hops), never from a header the caller made up; every answer
// carries the security headers; an unsafe operator token keeps the server from starting.

const base = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: "", RATE_LIMIT_SIGNUP: "3/3600" };
let direct: Proc;
let proxied: Proc;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([startLeanServer(base), startLeanServer({ ...base, TRUST_PROXY: "1" })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

const signup = (server: Proc, headers: Record<string, string>) =>
  fetch(`${server.url}/v1/accounts/free`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID(), ...headers },
    body: JSON.stringify({ email: `spoof-${randomUUID()}@example.com` }),
  }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

describe("per-address limits", () => {
  it("a made-up X-Forwarded-For or address header does not buy a fresh limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(await signup(direct, { "x-forwarded-for": `198.51.100.${i}`, [CLIENT_IP_HEADER]: `203.0.113.${i}`, "x-real-ip": `192.0.2.${i}` }));
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });

  it("behind TRUST_PROXY=1, the address one hop from the right counts; what the client put before it does not", async () => {
    const viaProxy = (client: string, forged: string) => signup(proxied, { "x-forwarded-for": `${forged}, ${client}` });
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 4; i++) a.push(await viaProxy("192.0.2.10", `10.0.0.${i}`));
    for (let i = 0; i < 3; i++) b.push(await viaProxy("192.0.2.11", "10.0.0.1"));
    expect(a).toEqual([201, 201, 201, 429]);
    expect(b).toEqual([201, 201, 201]);
  });
});

describe("security headers", () => {
  it("every answer says nosniff, forbids framing and has a policy; HSTS only over https", async () => {
    const res = await fetch(`${direct.url}/v1/health`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    // A client cannot claim https without a trusted proxy; behind one, the proxy's word counts.
    expect((await fetch(`${direct.url}/v1/health`, { headers: { "x-forwarded-proto": "https" } })).headers.get("strict-transport-security")).toBeNull();
    expect((await fetch(`${proxied.url}/v1/health`, { headers: { "x-forwarded-proto": "https" } })).headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
  });
});

/** One raw HTTP/1.1 request (methods fetch refuses to send), and the answer's status line, headers and body. */
function raw(server: Proc, method: string, path: string, opts: { host?: string | null; version?: string; headers?: string; connection?: string; body?: string } = {}): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(server.url);
  const host = opts.host === undefined ? `Host: ${hostname}\r\n` : opts.host === null ? "" : `Host: ${opts.host}\r\n`;
  return new Promise((resolve, reject) => {
    // Written, not ended: a half-closed socket is closed by the server before a slower answer (one that reads the database) is written.
    const s = net.connect(Number(port), hostname, () => s.write(`${method} ${path} HTTP/${opts.version ?? "1.1"}\r\n${host}${opts.headers ?? ""}Connection: ${opts.connection ?? "close"}\r\n\r\n${opts.body ?? ""}`));
    let text = "";
    s.setEncoding("latin1");
    s.on("data", (d) => (text += d));
    s.on("error", reject);
    s.on("close", () => {
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
  });
}

describe("methods outside HTTP's usual few", () => {
  it("TRACE, TRACK and a made-up method get 405 METHOD_NOT_ALLOWED in the envelope, with a request id", async () => {
    // DESCRIBE and RECORD: RTSP's, which the parser knows for RTSP only (it answered 400).
    for (const method of ["TRACE", "TRACK", "FOO", "DESCRIBE", "RECORD"]) {
      const r = await raw(direct, method, "/v1/sets");
      expect(r.status, method).toBe(405);
      const body = JSON.parse(r.body.slice(r.body.indexOf("{"), r.body.lastIndexOf("}") + 1)) as { error: { code: string; request_id: string } };
      expect(body.error.code, method).toBe("METHOD_NOT_ALLOWED");
      expect(r.headers["x-request-id"], method).toBe(body.error.request_id);
      expect(r.headers["x-content-type-options"], method).toBe("nosniff");
      expect(r.headers.allow, method).toBe("GET, HEAD, OPTIONS");
    }
    // On a path that does not exist, 404 whatever the method.
    const trace = await raw(direct, "TRACE", "/v1/nope/deeper");
    expect(trace.status).toBe(404);
  });
});

describe("requests asking for what this server does not do", () => {
  it("an Upgrade (h2c, websocket) is answered as HTTP/1.1, not a connection closed without a byte; one with a body is refused in the envelope", async () => {
    for (const upgrade of ["h2c", "websocket"]) {
      const r = await raw(direct, "GET", "/v1/reference", { headers: `Upgrade: ${upgrade}\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n`, connection: "Upgrade, HTTP2-Settings" });
      expect(r.status, upgrade).toBe(200);
      expect(r.headers["x-request-id"], upgrade).toMatch(/\S/);
      expect(JSON.parse(r.body.slice(r.body.indexOf("{"), r.body.lastIndexOf("}") + 1)).data).toBeDefined();
    }
    const missing = await raw(direct, "GET", "/v1/nope", { headers: "Upgrade: websocket\r\n", connection: "Upgrade" });
    expect(missing.status).toBe(404);
    expect(envelope(missing).error.request_id).toBe(missing.headers["x-request-id"]);
    const posted = await raw(direct, "POST", "/v1/accounts/free", { headers: "Upgrade: h2c\r\nContent-Type: application/json\r\nContent-Length: 2\r\n", connection: "Upgrade", body: "{}" });
    expect(posted.status).toBe(400);
    expect(envelope(posted).error.code).toBe("INVALID_PARAMETER");
  });

  it("an Expect other than 100-continue is served as without it, not Node's bare 417", async () => {
    const r = await raw(direct, "GET", "/v1/reference", { headers: "Expect: foo\r\n" });
    expect(r.status).toBe(200);
    expect(r.headers["x-request-id"]).toMatch(/\S/);
    const missing = await raw(direct, "GET", "/v1/nope", { headers: "Expect: foo\r\n" });
    expect(missing.status).toBe(404);
    expect(envelope(missing).error.request_id).toBe(missing.headers["x-request-id"]);
  });
});

describe("a GET's body", () => {
  it("is never read, but one declared past 1,000,000 bytes is 413 PAYLOAD_TOO_LARGE as on every route (it was served, and charged)", async () => {
    const { hostname, port } = new URL(direct.url);
    const answer = (length: number) => new Promise<string>((resolve, reject) => {
      const s = net.connect(Number(port), hostname, () => s.write(`GET /v1/reference HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${"x".repeat(Math.min(length, 10))}`));
      let text = "";
      s.setEncoding("latin1");
      s.on("data", (d) => (text += d));
      s.on("error", reject);
      s.on("close", () => resolve(text));
    });
    const big = await answer(1_000_001);
    expect(big.split("\r\n", 1)[0]).toBe("HTTP/1.1 413 Payload Too Large");
    expect(big).toContain('"code":"PAYLOAD_TOO_LARGE"');
    expect((await answer(10)).split("\r\n", 1)[0]).toBe("HTTP/1.1 200 OK");
  });
});

const envelope = (r: { body: string }) => JSON.parse(r.body.slice(r.body.indexOf("{"), r.body.lastIndexOf("}") + 1)) as { error: { code: string; request_id: string } };

describe("the request line alone names the route", () => {
  it("a Host holding a path is refused 400 in the envelope: it chose the route before (Host: x/v1/keys# made a key on a public route)", async () => {
    const { port } = new URL(direct.url);
    for (const host of [`127.0.0.1:${port}/v1/cards/base1-1/prices#`, `127.0.0.1:${port}/v1/me?`, "evil.example/v1/keys#", ""]) {
      const r = await raw(direct, "GET", "/v1/health", { host });
      expect(r.status, host).toBe(400);
      expect(envelope(r).error.code, host).toBe("INVALID_PARAMETER");
      expect(r.headers["x-request-id"], host).toBe(envelope(r).error.request_id);
    }
    // HTTP/1.1 without Host: the envelope too, not node's bare 400.
    const none = await raw(direct, "GET", "/v1/health", { host: null });
    expect([none.status, envelope(none).error.code]).toEqual([400, "INVALID_PARAMETER"]);
  });

  it("HTTP/1.0 may leave Host out; an absolute-form target is answered as its path", async () => {
    const old = await raw(direct, "GET", "/v1/health", { host: null, version: "1.0" });
    expect(old.status).toBe(200);
    const absolute = await raw(direct, "GET", `${direct.url}/v1/health`);
    expect(absolute.status).toBe(200);
    expect(JSON.parse(absolute.body.slice(absolute.body.indexOf("{"), absolute.body.lastIndexOf("}") + 1))).toMatchObject({ status: "ok" });
    const star = await raw(direct, "OPTIONS", "*");
    expect([star.status, envelope(star).error.code]).toEqual([400, "INVALID_PARAMETER"]);
  });
});

describe("long request lines", () => {
  it("a batch of 20,000 characters of ids (what the document allows) is read and answered in the envelope (401 here: no key)", async () => {
    const ids = Array.from({ length: 2_200 }, (_, i) => `base1-${i}`).join(",").slice(0, 20_000);
    const r = await raw(direct, "GET", `/v1/cards/batch?ids=${ids}`);
    const body = JSON.parse(r.body.slice(r.body.indexOf("{"), r.body.lastIndexOf("}") + 1)) as { error: { code: string } };
    expect([r.status, body.error.code]).toEqual([401, "MISSING_API_KEY"]);
  });

  it("a line past what the server reads is 431 in the envelope, with a request id", async () => {
    const r = await raw(direct, "GET", `/v1/cards/batch?ids=${"x".repeat(70_000)}`);
    expect(r.status).toBe(431);
    const body = JSON.parse(r.body.slice(r.body.indexOf("{"), r.body.lastIndexOf("}") + 1)) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe("HEADERS_TOO_LARGE");
    expect(r.headers["x-request-id"]).toBe(body.error.request_id);
  });
});

describe("the operator token", () => {
  it("a server refuses to start with one shorter than 32 characters", async () => {
    const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "server/lean.ts"], {
      env: { ...process.env, ...base, PORT: "65001", ADMIN_TOKEN: "short-and-guessable" }, stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain("ADMIN_TOKEN must be at least 32 characters");
  });
});
