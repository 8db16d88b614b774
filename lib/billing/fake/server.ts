// The HTTP side: /v1/* answers like Stripe's API (API-key auth, form bodies, idempotency keys,
// JSON errors), /_control/* is the control API, everything else the hosted pages.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { namesThisMachine } from "@/lib/api/client-ip";
import { controlRouter, type Core } from "./control";
import { FakeStripeError } from "./errors";
import { API_VERSION } from "./events";
import { parseForm, type FormObject } from "./form";
import { Router } from "./http";
import { newId } from "./ids";
import {
  checkoutCancel,
  checkoutPage,
  checkoutPay,
  indexPage,
  invoicePage,
  invoicePay,
  invoicePdf,
  notFound,
  portalAction,
  portalPage,
  type PageResult,
} from "./pages";
import { catalogRoutes } from "./resources/catalog";
import { checkoutRoutes } from "./resources/checkout";
import { customerRoutes } from "./resources/customers";
import { invoiceRoutes } from "./resources/invoices";
import { eventRoutes, portalRoutes } from "./resources/misc";
import { scheduleRoutes } from "./resources/schedules";
import { subscriptionRoutes } from "./resources/subscriptions";

const MAX_BODY = 1024 * 1024;

export function apiRouter(): Router {
  const r = new Router();
  catalogRoutes(r);
  customerRoutes(r);
  checkoutRoutes(r);
  subscriptionRoutes(r);
  scheduleRoutes(r);
  invoiceRoutes(r);
  portalRoutes(r);
  eventRoutes(r);
  return r;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new FakeStripeError(413, "invalid_request_error", "Request body too large."));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(text);
}

function sendPage(res: ServerResponse, page: PageResult): void {
  res.writeHead(page.status, page.headers);
  res.end(page.body);
}

/** The API key of the request: `Authorization: Bearer sk_test_…` (or Basic with the key as user). */
function apiKey(req: IncomingMessage): string | null {
  const h = req.headers.authorization ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(h);
  if (bearer) return bearer[1] ?? null;
  const basic = /^Basic\s+(\S+)$/i.exec(h);
  if (basic) return Buffer.from(basic[1] ?? "", "base64").toString("utf8").split(":")[0] ?? null;
  return null;
}

function authError(key: string | null): FakeStripeError | null {
  if (!key) {
    return new FakeStripeError(
      401,
      "invalid_request_error",
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  if (!/^(sk|rk)_test_\S+$/.test(key)) {
    return new FakeStripeError(401, "invalid_request_error", `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`, undefined, "api_key_invalid");
  }
  return null;
}

interface Cached {
  method: string;
  path: string;
  params: string;
  status: number;
  body: unknown;
}

export function startServer(core: Core, opts: { tick: () => void }): Server {
  const api = apiRouter();
  const control = controlRouter();
  const idempotent = new Map<string, Cached>();

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    const requestId = newId("req", 14);
    const headers = { "request-id": requestId, "stripe-version": String(req.headers["stripe-version"] ?? API_VERSION) };
    const fail = authError(apiKey(req));
    if (fail) return sendJson(res, fail.status, fail.body(), headers);
    const key = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
    const body = method === "GET" ? "" : await readBody(req);
    if (method === "POST" && key) {
      const hit = idempotent.get(key);
      if (hit) {
        if (hit.method !== method || hit.path !== url.pathname) {
          const err = new FakeStripeError(400, "idempotency_error", `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${hit.method} ${hit.path}').`);
          return sendJson(res, 400, err.body(), headers);
        }
        if (hit.params !== body) {
          const err = new FakeStripeError(400, "idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`);
          return sendJson(res, 400, err.body(), headers);
        }
        return sendJson(res, hit.status, hit.body, { ...headers, "idempotent-replayed": "true", "idempotency-key": key });
      }
    }
    let status = 200;
    let out: unknown;
    try {
      opts.tick();
      const params: FormObject = { ...parseForm(url.search.slice(1)), ...parseForm(body) };
      const route = api.match(method, url.pathname);
      if (!route) {
        throw new FakeStripeError(
          404,
          "invalid_request_error",
          `Unrecognized request URL (${method}: ${url.pathname}). The fake Stripe does not implement this endpoint; see docs/stripe-fake.md.`,
        );
      }
      out = route.handler(core.e, { method, path: url.pathname, params, args: route.args, info: { id: requestId, idempotency_key: key } });
    } catch (err) {
      const e = err instanceof FakeStripeError ? err : new FakeStripeError(500, "api_error", `Fake Stripe failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!(err instanceof FakeStripeError)) console.error("[fake-stripe]", err);
      status = e.status;
      out = e.body();
      (out as { error: Record<string, unknown> }).error.request_log_url = `https://dashboard.stripe.com/test/logs/${requestId}`;
    }
    if (method === "POST" && key) {
      idempotent.set(key, { method, path: url.pathname, params: body, status, body: out });
      if (idempotent.size > 5000) idempotent.delete(idempotent.keys().next().value as string);
    }
    sendJson(res, status, out, headers);
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    const route = control.match(method, url.pathname.replace(/\/$/, ""));
    if (!route) {
      const err = new FakeStripeError(404, "invalid_request_error", `Unknown control route (${method}: ${url.pathname}); GET /_control lists them.`);
      return sendJson(res, 404, err.body());
    }
    const raw = method === "GET" ? "" : await readBody(req);
    let body: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (raw.trim()) {
      const json = (req.headers["content-type"] ?? "").includes("json") || /^\s*[{[]/.test(raw);
      body = { ...body, ...(json ? (JSON.parse(raw) as Record<string, unknown>) : parseForm(raw)) };
    }
    opts.tick();
    sendJson(res, 200, await route.handler(core, body, route.args));
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    const p = url.pathname;
    const form = method === "POST" ? parseForm(await readBody(req)) : {};
    opts.tick();
    const e = core.e;
    let m: RegExpExecArray | null;
    if (method === "GET" && (p === "/" || p === "")) return sendPage(res, indexPage(e));
    if ((m = /^\/checkout\/([^/]+)$/.exec(p)) && method === "GET") return sendPage(res, checkoutPage(e, m[1] as string));
    if ((m = /^\/checkout\/([^/]+)\/pay$/.exec(p)) && method === "POST") return sendPage(res, checkoutPay(e, m[1] as string, form));
    if ((m = /^\/checkout\/([^/]+)\/cancel$/.exec(p))) return sendPage(res, checkoutCancel(e, m[1] as string));
    if ((m = /^\/portal\/([^/]+)$/.exec(p)) && method === "GET") return sendPage(res, portalPage(e, m[1] as string));
    if ((m = /^\/portal\/([^/]+)\/subscriptions\/([^/]+)\/(cancel|renew|switch)$/.exec(p)) && method === "POST") {
      return sendPage(res, portalAction(e, m[1] as string, m[2] as string, m[3] as string, form));
    }
    if ((m = /^\/invoices\/([^/]+)\.pdf$/.exec(p)) && method === "GET") return sendPage(res, invoicePdf(e, m[1] as string));
    if ((m = /^\/invoices\/([^/]+)$/.exec(p)) && method === "GET") return sendPage(res, invoicePage(e, m[1] as string));
    if ((m = /^\/invoices\/([^/]+)\/pay$/.exec(p)) && method === "POST") return sendPage(res, invoicePay(e, m[1] as string));
    if (/^\/(checkout|portal|invoices)\//.test(p)) return sendPage(res, notFound(`${method} ${p}`));
    const err = new FakeStripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${p}).`);
    sendJson(res, 404, err.body());
  }

  return createServer((req, res) => {
    // Local only: a page whose domain was rebound to 127.0.0.1 (DNS rebinding) reaches this
    // server from a browser under its own name, and the control routes need no key.
    if (!namesThisMachine(req.headers.host)) {
      sendJson(res, 421, new FakeStripeError(421, "invalid_request_error", "This fake answers only under localhost or a loopback address.").body());
      return;
    }
    const url = new URL(req.url ?? "/", "http://fake-stripe.local");
    const p = url.pathname;
    const run = p.startsWith("/v1/")
      ? handleApi(req, res, url)
      : p === "/_control" || p.startsWith("/_control/")
        ? handleControl(req, res, url)
        : handlePage(req, res, url);
    run.catch((err: unknown) => {
      const e = err instanceof FakeStripeError ? err : new FakeStripeError(500, "api_error", err instanceof Error ? err.message : String(err));
      if (!(err instanceof FakeStripeError)) console.error("[fake-stripe]", err);
      if (!res.headersSent) sendJson(res, e.status, e.body());
      else res.end();
    });
  });
}
