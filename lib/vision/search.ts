import { COARSE_LEN } from "./describe";
import { indexMtime, openIndex, type OpenIndex } from "./index-file";
import { simdScanner, type Scanner } from "./scan-simd";

// The index as the servers hold it: loaded on the first identify (and at start), reloaded when
// the vision-index job replaces the file (checked at most every 5 s), searched exhaustively.
// 39k cards × 120 bytes is a 4.7 MB scan of int8 vectors: a few milliseconds (about one with
// WebAssembly SIMD, scan-simd.ts), no ANN needed.

const RECHECK_MS = 5_000;

let current: OpenIndex | null = null;
let loading: Promise<OpenIndex | null> | null = null;
let checkedAt = 0;

async function load(): Promise<OpenIndex | null> {
  const next = await openIndex();
  const old = current;
  current = next;
  // Searches that still hold the old index finish first: its file handle closes a little later.
  if (old && old !== next) setTimeout(() => void old.close(), 30_000).unref?.();
  return next;
}

/** The loaded index, or null when none has been built yet. */
export async function visionIndex(): Promise<OpenIndex | null> {
  const now = Date.now();
  if (current && now - checkedAt < RECHECK_MS) return current;
  checkedAt = now;
  if (!loading) {
    loading = (async () => {
      try {
        const mtime = await indexMtime();
        if (!mtime) return (current = null);
        if (current && current.mtimeMs === mtime) return current;
        return await load();
      } finally {
        loading = null;
      }
    })();
  }
  return loading;
}

export type Hit = { row: number; d: number };

/** The k rows nearest to `q` by squared distance of the coarse vectors, nearest first. */
export function nearest(coarse: Int8Array, q: Int8Array, k: number, simd = true): Hit[] {
  const scanner = simd ? scannerOf(coarse) : null;
  const dist = scanner ? scanner.distances(q) : null;
  // A local copy: a module binding read in the inner loop is a property load on every step.
  const L = COARSE_LEN;
  const n = coarse.length / L;
  const rows = new Int32Array(k).fill(-1);
  const ds = new Float64Array(k).fill(Number.POSITIVE_INFINITY);
  let worst = Number.POSITIVE_INFINITY;
  for (let r = 0; r < n; r++) {
    let s = 0;
    if (dist) s = dist[r]!;
    else {
      // A plain full sum: an early exit inside this loop costs more than it saves (measured).
      const o = r * L;
      for (let j = 0; j < L; j++) {
        const d = q[j]! - coarse[o + j]!;
        s += d * d;
      }
    }
    if (s >= worst) continue;
    let i = k - 1;
    while (i > 0 && ds[i - 1]! > s) {
      ds[i] = ds[i - 1]!;
      rows[i] = rows[i - 1]!;
      i--;
    }
    ds[i] = s;
    rows[i] = r;
    worst = ds[k - 1]!;
  }
  const out: Hit[] = [];
  for (let i = 0; i < k; i++) if (rows[i]! >= 0) out.push({ row: rows[i]!, d: ds[i]! });
  return out;
}

// One SIMD copy of each index's coarse vectors (5 MB), made on its first search.
const scanners = new WeakMap<Int8Array, Scanner | null>();
export function scannerOf(coarse: Int8Array): Scanner | null {
  if (!scanners.has(coarse)) scanners.set(coarse, simdScanner(coarse, COARSE_LEN));
  return scanners.get(coarse)!;
}

/** Forgets the loaded index (tests that rebuild it). */
export function resetVisionIndex(): void {
  current = null;
  checkedAt = 0;
}
