import { EventEmitter } from "node:events";
import type { Server } from "node:http";
import { describe, expect, it } from "vitest";
import { answerClientErrors } from "@/server/http";

// What node's server would answer on its own, or not at all: requests that time out, and CONNECT
// (which node hands to a 'connect' listener and otherwise drops without a byte). Both answer in
// the error envelope with a request id, then close.

function serverWith(allowOf?: (path: string) => string | null | undefined) {
  const server = new EventEmitter();
  answerClientErrors(server as unknown as Server, allowOf);
  const socket = () => {
    const out: { text: string; destroyed: boolean } = { text: "", destroyed: false };
    return { out, sock: { writable: true, end: (b: Buffer) => void (out.text += b.toString("latin1")), destroy: () => void (out.destroyed = true) } };
  };
  return { server, socket };
}

const parsed = (text: string) => {
  const [head = "", body = ""] = text.split("\r\n\r\n");
  const [status = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status, headers, body: JSON.parse(body) as { error: { code: string; request_id: string } } };
};

describe("answers node would not put in the envelope", () => {
  it("a request whose headers or body do not arrive in time: 408 REQUEST_TIMEOUT with a request id, free", () => {
    const { server, socket } = serverWith();
    const { out, sock } = socket();
    server.emit("clientError", Object.assign(new Error("timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" }), sock);
    const a = parsed(out.text);
    expect(a.status).toBe("HTTP/1.1 408 Request Timeout");
    expect(a.body.error.code).toBe("REQUEST_TIMEOUT");
    expect(a.headers["x-request-id"]).toBe(a.body.error.request_id);
    expect(a.headers["x-credits-cost"]).toBe("0");
    expect(a.headers.connection).toBe("close");
  });

  it("CONNECT: 405 with the path's Allow on a /v1 route, 404 on a /v1 path no route has", () => {
    const { server, socket } = serverWith((path) => (path === "/v1/cards" ? "GET, HEAD, OPTIONS" : null));
    const known = socket();
    server.emit("connect", { url: "/v1/cards?limit=1", method: "CONNECT", headers: {} }, known.sock, Buffer.alloc(0));
    const a = parsed(known.out.text);
    expect([a.status, a.body.error.code, a.headers.allow]).toEqual(["HTTP/1.1 405 Method Not Allowed", "METHOD_NOT_ALLOWED", "GET, HEAD, OPTIONS"]);
    expect(a.headers["x-request-id"]).toBe(a.body.error.request_id);
    const unknown = socket();
    server.emit("connect", { url: "/v1/nope", method: "CONNECT", headers: {} }, unknown.sock, Buffer.alloc(0));
    expect(parsed(unknown.out.text).body.error.code).toBe("NOT_FOUND");
  });
});
