import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { internalError, securityHeaders, setSecurityHeaders, shutDown, stampClientIp } from "@/server/http";

// The servers under faults. A request whose connection is already gone reaches the handlers with
// `req.socket` null (seen on the custom server, under clients that gave up): reading the address
// or the scheme off it threw inside the handler's own error path, an unhandled rejection instead
// of an answer. And a shutdown whose last writes hang (a database that stopped answering) never
// exited.

const orphan = (headers: Record<string, string> = {}) => ({ method: "GET", url: "/v1/health", headers: { ...headers }, socket: null }) as unknown as IncomingMessage;

describe("a request without its socket", () => {
  it("gets the unknown address, not a TypeError", () => {
    const req = orphan({ [CLIENT_IP_HEADER]: "6.6.6.6" });
    const ip = stampClientIp(req);
    expect(ip).not.toBe("6.6.6.6");
    expect(req.headers[CLIENT_IP_HEADER]).toBe(ip);
  });

  it("gets the security headers of plain http", () => {
    expect(securityHeaders(orphan(), true)["x-content-type-options"]).toBe("nosniff");
    expect(securityHeaders(orphan(), true)).not.toHaveProperty("strict-transport-security");
    const set: Record<string, string> = {};
    setSecurityHeaders(orphan(), { setHeader: (n: string, v: string) => (set[n] = v) } as unknown as ServerResponse, false);
    expect(set["x-frame-options"]).toBe("DENY");
  });
});

describe("a fault of the server itself", () => {
  it("answers 500 INTERNAL_ERROR in the envelope, with a request id of its own, free, and no stack", () => {
    const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
    const res = {
      headersSent: false,
      writeHead: (status: number, headers: Record<string, string>) => Object.assign(sent, { status, headers }),
      end: (body: string) => void (sent.body = body),
    } as unknown as ServerResponse;
    const logged = console.error;
    console.error = () => undefined;
    try {
      internalError(res, new Error("relation \"cards\" does not exist at Object.query"));
    } finally {
      console.error = logged;
    }
    const body = JSON.parse(sent.body!);
    expect(sent.status).toBe(500);
    expect(body.error.code).toBe("INTERNAL_ERROR");
    expect(body.error.request_id).toMatch(/^req_/);
    expect(sent.headers!["x-request-id"]).toBe(body.error.request_id);
    expect(sent.headers!["x-credits-cost"]).toBe("0");
    expect(sent.body).not.toMatch(/relation|Object\.query/);
  });
});

describe("shutDown", () => {
  const server = () => ({ close: (cb?: (err?: Error) => void) => (cb?.(), undefined as never), closeIdleConnections: () => undefined });

  it("ends with 0 once the last writes are done", async () => {
    let done = false;
    const code = await shutDown(server(), async () => void (done = true), { graceMs: 10, finishMs: 1000 });
    expect([code, done]).toEqual([0, true]);
  });

  it("exits after finishMs with 1 when the last writes hang (a database that never answers)", async () => {
    const started = Date.now();
    const code = await shutDown(server(), () => new Promise<void>(() => {}), { graceMs: 10, finishMs: 200 });
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
