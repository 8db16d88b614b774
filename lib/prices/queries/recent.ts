import { createHash } from "node:crypto";
import type { RecentPoint, StoredPoint } from "@/lib/db/schema";

// The stored shapes of a series' key and recent points, and the app's shapes of them.

/** md5 of the joined series key, as the uuid PostgreSQL's md5(text)::uuid gives. */
export function keyHash(key: string): string {
  const h = createHash("md5").update(key).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const startOf = (day: string) => `${day}T00:00:00Z`;

export function packRecent(points: RecentPoint[]): StoredPoint[] {
  return points.map((p) => (Date.parse(p.observed_at) === Date.parse(startOf(p.as_of))
    ? [p.as_of, p.amount, p.sample_n]
    : [p.as_of, p.amount, p.sample_n, p.observed_at]));
}

export function unpackRecent(stored: StoredPoint[]): RecentPoint[] {
  return stored.map((s) => ({ as_of: s[0], amount: Number(s[1]), sample_n: s[2] ?? null, observed_at: s[3] ?? startOf(s[0]) }));
}
