import type IORedis from "ioredis";
import { forgetAccount, forgetAllAccounts } from "./keys";

// An account's plan or state changed (a Stripe webhook, an operator): every instance must see it
// on its next request, not after its key cache expires. The change is published on the meter's
// Redis; each instance drops the account's cached lookups when it hears it. Without Redis there is
// one instance (the in-process meter), and forgetting locally is enough. Over Upstash's REST API
// there is no subscription: other instances see the change within KEY_CACHE_MS (5 s).

const CHANNEL = "pokeprice:account-changed";
const slot = globalThis as unknown as { __accountBus?: { pub?: IORedis; sub?: Promise<IORedis | undefined> } };
const bus = () => (slot.__accountBus ??= {});

async function connect(): Promise<IORedis | undefined> {
  const url = process.env.REDIS_URL;
  if (!url) return undefined;
  const { default: Redis } = await import("ioredis");
  return new Redis(url, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false });
}

/** Subscribes this process once; called on the key-verification path, so it costs a check after the first time. */
export function listenForAccountChanges(): void {
  const b = bus();
  if (b.sub || !process.env.REDIS_URL) return;
  b.sub = connect().then(async (redis) => {
    if (!redis) return undefined;
    redis.on("error", () => undefined);
    redis.on("message", (_channel: string, id: string) => forgetAccount(id));
    await redis.subscribe(CHANNEL);
    // A subscription lost while Redis was away may have missed changes: start clean.
    redis.on("ready", () => forgetAllAccounts());
    return redis;
  }).catch((err) => {
    console.error(`[accounts] change feed unavailable: ${(err as Error).message}`);
    b.sub = undefined;
    return undefined;
  });
  // The subscriber must not keep a finished script alive.
  void b.sub.then((r) => (r as unknown as { stream?: { unref?: () => void } })?.stream?.unref?.());
}

/** Forgets the account here and tells every other instance to. */
export async function announceAccountChange(accountId: string): Promise<void> {
  forgetAccount(accountId);
  if (!process.env.REDIS_URL) return;
  const b = bus();
  try {
    b.pub ??= (await connect())!;
    await b.pub.publish(CHANNEL, accountId);
  } catch (err) {
    console.error(`[accounts] could not announce a change of ${accountId}: ${(err as Error).message}`);
  }
}

export async function closeAccountBus(): Promise<void> {
  const b = slot.__accountBus;
  slot.__accountBus = undefined;
  b?.pub?.disconnect();
  (await b?.sub)?.disconnect();
}
