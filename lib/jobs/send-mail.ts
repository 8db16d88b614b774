import { drainOutbox } from "@/lib/mail/sender";

// `npm run job -- send-mail [--watch] [--every 5]`: delivers the mail that is due in the
// outbox over SMTP_URL, then exits (or, with --watch, keeps going every N seconds). The app
// does the same in the background when SMTP_URL is set; this is for a separate worker or cron.

export async function run(args: Map<string, string>): Promise<number> {
  if (!process.env.SMTP_URL) {
    console.error("[send-mail] SMTP_URL is not set: nothing to send through. Without SMTP the mail stays readable at /dev/outbox.");
    return 2;
  }
  const once = async () => {
    const r = await drainOutbox();
    for (const e of r.errors) console.warn(`[send-mail] failed, will retry: ${e}`);
    console.log(`[send-mail] sent ${r.sent}, failed ${r.failed}, taken by another sender ${r.skipped}`);
    return r;
  };
  if (!args.has("watch")) return (await once()).failed ? 1 : 0;
  const everyS = Math.max(1, Number(args.get("every") ?? 5) || 5);
  let stop = false;
  const quit = () => { stop = true; };
  process.once("SIGINT", quit);
  process.once("SIGTERM", quit);
  while (!stop) {
    try {
      await once();
    } catch (err) {
      console.error(`[send-mail] pass failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (let waited = 0; waited < everyS * 1000 && !stop; waited += 250) await new Promise((r) => setTimeout(r, 250));
  }
  return 0;
}
