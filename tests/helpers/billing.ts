import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { dispatch } from "@/app/api/v1/router";
import { startFakeStripe, type FakeStripe } from "@/lib/billing/fake";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { BASE } from "./api";

// The local Stripe fake for a test file, with its webhooks delivered to the app's own route
// (over HTTP, as Stripe does, into the same route modules the tests call).

export type Billing = { fake: FakeStripe; secret: string; webhookUrl: string; received: { status: number; body: string }[] };

export function useFakeStripe(opts: { deliver?: "auto" | "manual"; shuffle?: boolean } = {}): Billing {
  const b = { received: [] } as unknown as Billing;
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const headers: Record<string, string> = { [CLIENT_IP_HEADER]: "127.0.0.1" };
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
        const answer = await dispatch(new Request(`${BASE}/v1/billing/webhook`, { method: "POST", headers, body: Buffer.concat(chunks) }));
        const body = await answer.text();
        b.received.push({ status: answer.status, body });
        res.writeHead(answer.status, { "content-type": "application/json" }).end(body);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    b.webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/billing/webhook`;
    b.secret = `whsec_${randomBytes(16).toString("hex")}`;
    b.fake = await startFakeStripe({ webhookSecret: b.secret, webhookUrl: b.webhookUrl, tickMs: 0, deliver: opts.deliver ?? "auto", shuffle: opts.shuffle });
    process.env.STRIPE_API_BASE = b.fake.url;
    process.env.STRIPE_WEBHOOK_SECRET = b.secret;
  });
  afterAll(async () => {
    delete process.env.STRIPE_API_BASE;
    delete process.env.STRIPE_WEBHOOK_SECRET;
    await b.fake?.close();
    await new Promise<void>((r) => server?.close(() => r()));
  });
  return b;
}

/** The Checkout Session id in a URL the checkout route answered. */
export const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
