import { MemoryMeter } from "./memory";
import { ioredisClient, ScriptMeter, upstashClient, type ScriptClient } from "./redis";
import type { MeterDriver } from "./types";

// REDIS_URL → ioredis; UPSTASH_REDIS_REST_URL and _TOKEN → @upstash/redis over REST;
// neither → the in-process meter (the embedded default: one instance only).

const slot = globalThis as unknown as { __meter?: Promise<MeterDriver> };

async function open(): Promise<MeterDriver> {
  const url = process.env.REDIS_URL;
  if (url) {
    const { default: Redis } = await import("ioredis");
    const redis = new Redis(url, {
      // A meter that cannot answer fast is treated as down: trial calls get 503, paid calls
      // are served uncounted. Nothing waits in a queue for a reconnect.
      commandTimeout: Number(process.env.REDIS_TIMEOUT_MS ?? 300),
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      enableAutoPipelining: true,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    redis.on("error", () => undefined); // reported per request as METER_UNAVAILABLE / degraded
    return new ScriptMeter(ioredisClient(redis));
  }
  if (process.env.UPSTASH_REDIS_REST_URL && process.env.UPSTASH_REDIS_REST_TOKEN) {
    const { Redis } = await import("@upstash/redis");
    const redis = new Redis({ url: process.env.UPSTASH_REDIS_REST_URL, token: process.env.UPSTASH_REDIS_REST_TOKEN, automaticDeserialization: false });
    return new ScriptMeter(upstashClient(redis as never));
  }
  return new MemoryMeter();
}

export function meterDriver(): Promise<MeterDriver> {
  return (slot.__meter ??= open());
}

export async function closeMeter(): Promise<void> {
  const m = slot.__meter;
  slot.__meter = undefined;
  if (m) await (await m).close();
}

/** The meter's Redis script client, when the meter runs on Redis; undefined in process. */
export async function scriptClient(): Promise<ScriptClient | undefined> {
  const m = await meterDriver();
  return m instanceof ScriptMeter ? m.client : undefined;
}
