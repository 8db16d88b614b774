import { randomBytes } from "node:crypto";
import path from "node:path";
import { env } from "@/lib/env";

// Billing without internet: when no STRIPE_SECRET_KEY is set, the embedded default (and any
// server started with STRIPE_FAKE=1) runs the local Stripe fake (lib/billing/fake) beside the
// app: Checkout pages a newcomer can click through, and signed webhooks back to this server.
// It listens on loopback only; its control routes need no key, so it is never started next to
// a real Stripe key, and never on PostgreSQL unless asked for.

export async function startEmbeddedStripe(appPort: number): Promise<void> {
  if (process.env.STRIPE_SECRET_KEY || process.env.STRIPE_API_BASE) return;
  const wanted = process.env.STRIPE_FAKE ?? (process.env.DATABASE_URL ? "0" : "1");
  if (wanted !== "1") return;
  const { startFakeStripe } = await import("@/lib/billing/fake");
  try {
    await start(startFakeStripe, appPort);
  } catch (err) {
    // A port in use must not keep the app from starting: billing answers 503 until it is fixed.
    console.error(`[billing] the local Stripe fake did not start (${(err as Error).message}); set STRIPE_FAKE_PORT to a free port. Billing routes answer 503 meanwhile.`);
  }
}

async function start(startFakeStripe: typeof import("@/lib/billing/fake").startFakeStripe, appPort: number): Promise<void> {
  const port = Number(process.env.STRIPE_FAKE_PORT ?? appPort + 1);
  const secret = process.env.STRIPE_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString("hex")}`;
  const fake = await startFakeStripe({
    port,
    host: "127.0.0.1",
    webhookSecret: secret,
    webhookUrl: `http://127.0.0.1:${appPort}/v1/billing/webhook`,
    publicUrl: `http://localhost:${port}`,
    stateFile: path.join(path.dirname(env().PGLITE_DIR), "stripe-fake.json"),
    // The app may still be starting, or answer "busy, retry later" for an event in flight.
    retries: 8,
    retryMs: 1000,
  });
  process.env.STRIPE_API_BASE = fake.url;
  process.env.STRIPE_WEBHOOK_SECRET = secret;
  console.log(`[billing] no STRIPE_SECRET_KEY: the local Stripe fake answers at ${fake.publicUrl} (checkout pages, webhooks to this server)`);
}
