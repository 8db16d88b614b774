import { env } from "@/lib/env";

// Rendered answers of catalogue reads, kept in memory per process. The catalogue changes only
// when a job commits, and every job that writes bumps the catalogue's version in the same
// transaction: when the version moves, everything cached is dropped. Instances poll it at
// most once per second, so a change is served everywhere within a second of its commit.
// Authentication and the meter still run on every request; only the handler is skipped.

export type Rendered = {
  /** The answer's JSON as UTF-8, as it goes out. */
  body: Buffer; etag: string; status: number; headers?: Record<string, string>; cardIds?: string[]; hit?: boolean;
  /** What the answer cost when less than its reserved cost. */
  credits?: number;
  /** A cached rendering's compressed body, made on first demand and shared with its copies (compress.ts). */
  packed?: { gzip?: Buffer };
  /** A streamed file: never cached (a file route declares no cache policy). */
  file?: import("./route").FileAnswer;
};
export type CachePolicy = { version: () => Promise<string> };

class Lru {
  private readonly map = new Map<string, Rendered>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string): Rendered | undefined {
    const v = this.map.get(key);
    if (v) {
      // Move to the most recent end.
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: Rendered): void {
    const size = value.body.length + key.length;
    if (size > this.maxBytes / 8) return; // one huge answer must not flush the rest
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old.body.length + key.length;
      this.map.delete(key);
    }
    this.map.set(key, value);
    this.bytes += size;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.body.length + k.length;
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.map.size;
  }
}

const slot = globalThis as unknown as { __responseCache?: { lru: Lru; enabled: boolean; version?: string } };

function state() {
  if (!slot.__responseCache) {
    const mb = Number(process.env.RESPONSE_CACHE_MB ?? env().RESPONSE_CACHE_MB);
    slot.__responseCache = { lru: new Lru(Math.max(0, mb) * 1024 * 1024), enabled: mb > 0 };
  }
  return slot.__responseCache;
}

/** Read with the cache's own setting, once (process.env is slow to read on every request); tests reset it. */
export function cacheEnabled(): boolean {
  return state().enabled;
}

/** The cached rendering for `key`, rendering and storing it on a miss. */
export async function cached(policy: CachePolicy, key: string, render: () => Promise<Rendered>): Promise<Rendered> {
  const s = state();
  const version = await policy.version();
  if (version !== s.version) {
    s.lru.clear();
    s.version = version;
  }
  const hit = s.lru.get(key);
  if (hit) {
    // Not `{ ...hit, hit: true }`: in Node 20's V8 a spread followed by a property costs about a microsecond.
    const copy = Object.assign({}, hit);
    copy.hit = true;
    return copy;
  }
  const value = await render();
  // A render that raced an import belongs to the version it started under: keep it only
  // if no newer version was seen meanwhile.
  if (s.version === version && value.status === 200) {
    value.packed = {};
    s.lru.set(key, value);
  }
  return value;
}

export function resetResponseCacheForTests(): void {
  slot.__responseCache = undefined;
}
