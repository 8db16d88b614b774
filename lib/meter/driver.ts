import { flushLedgerSoon } from "./ledger";
import { MemoryMeter } from "./memory";
import { ScriptMeter, upstashClient, type ScriptClient } from "./redis";
import type { MeterDriver } from "./types";

// REDIS_URL → ioredis (ioredis.ts); UPSTASH_REDIS_REST_URL and _TOKEN → @upstash/redis over REST;
// neither → the in-process meter (the embedded default: one instance only).

const slot = globalThis as unknown as { __meter?: Promise<MeterDriver> };

async function open(): Promise<MeterDriver> {
  const url = process.env.REDIS_URL;
  if (url) {
    const [{ default: Redis }, { ioredisClient }] = await Promise.all([import("ioredis"), import("./ioredis")]);
    const redis = new Redis(url, {
      // A meter that cannot answer fast is treated as down: trial calls get 503, paid calls
      // are served uncounted. Nothing waits in a queue for a reconnect.
      commandTimeout: Number(process.env.REDIS_TIMEOUT_MS ?? 1000),
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      // A command issued while disconnected fails at once instead of waiting for the reconnect:
      // sent late, an acquire would charge a call that was already served uncounted.
      enableOfflineQueue: false,
      // Calls still leave one write per turn of the event loop: ioredisClient corks the socket.
      enableAutoPipelining: false,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    // Reported per request as METER_UNAVAILABLE / degraded. Redis failing, or back after a
    // failure, may have lost its data: a rebuild must find this instance's calls in the ledger.
    redis.on("error", flushLedgerSoon);
    redis.on("reconnecting", flushLedgerSoon);
    redis.on("ready", flushLedgerSoon);
    // Without an offline queue, the first calls need the connection up: wait for it, briefly.
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off("ready", done);
        resolve();
      };
      const timer = setTimeout(done, 2000);
      redis.once("ready", done);
    });
    return marked(new ScriptMeter(ioredisClient(redis)));
  }
  if (process.env.UPSTASH_REDIS_REST_URL && process.env.UPSTASH_REDIS_REST_TOKEN) {
    const { Redis } = await import("@upstash/redis");
    const redis = new Redis({ url: process.env.UPSTASH_REDIS_REST_URL, token: process.env.UPSTASH_REDIS_REST_TOKEN, automaticDeserialization: false });
    return marked(new ScriptMeter(upstashClient(redis as never)));
  }
  return new MemoryMeter();
}

/**
 * The store's age starts when the meter opens if it is empty (a new deployment, a Redis that came
 * back empty): accounts made from then on wait for no rebuild's grace (rebuild.ts).
 */
async function marked(meter: ScriptMeter): Promise<ScriptMeter> {
  await meter.age().catch(() => undefined);
  return meter;
}

export function meterDriver(): Promise<MeterDriver> {
  if (!slot.__meter) {
    const opening: Promise<MeterDriver> = open().then((driver) => {
      opened.set(opening, driver);
      return driver;
    });
    slot.__meter = opening;
  }
  return slot.__meter;
}

// The driver once open, for the request's path to use without an await (closeMeter or a test
// replacing slot.__meter starts over with another promise).
const opened = new WeakMap<Promise<MeterDriver>, MeterDriver>();

/** The meter's driver if it is open already, else undefined (then await meterDriver()). */
export function openMeterDriver(): MeterDriver | undefined {
  const m = slot.__meter;
  return m && opened.get(m);
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
