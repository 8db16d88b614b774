// Runs the fake on its own: `npx tsx lib/billing/fake/cli.ts [--port 12111] [--host 127.0.0.1]
//   [--webhook-url URL] [--webhook-secret whsec_…] [--public-url URL] [--state-file FILE] [--manual] [--shuffle]`
// Settings may also come from FAKE_STRIPE_PORT, STRIPE_WEBHOOK_SECRET, FAKE_STRIPE_WEBHOOK_URL,
// FAKE_STRIPE_PUBLIC_URL, FAKE_STRIPE_STATE_FILE.

import { startFakeStripe } from "./index";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const fake = await startFakeStripe({
    port: Number(arg("port") ?? process.env.FAKE_STRIPE_PORT ?? 12111),
    host: arg("host") ?? "127.0.0.1",
    webhookUrl: arg("webhook-url") ?? process.env.FAKE_STRIPE_WEBHOOK_URL,
    webhookSecret: arg("webhook-secret") ?? process.env.STRIPE_WEBHOOK_SECRET ?? "whsec_fake_stripe_local",
    publicUrl: arg("public-url") ?? process.env.FAKE_STRIPE_PUBLIC_URL,
    stateFile: arg("state-file") ?? process.env.FAKE_STRIPE_STATE_FILE,
    deliver: process.argv.includes("--manual") ? "manual" : "auto",
    shuffle: process.argv.includes("--shuffle"),
  });
  console.log(`fake Stripe on ${fake.url} (pages on ${fake.publicUrl}, control API: ${fake.url}/_control)`);
  console.log(`SDK: new Stripe("sk_test_anything", { host: "${fake.stripeOptions.host}", port: ${fake.port}, protocol: "http" })`);
  const stop = () => {
    void fake.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
