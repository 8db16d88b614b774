import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import type { CachePolicy } from "@/lib/api/response-cache";

// The catalogue's version: one number every import bumps in the transaction of its writes.
const POLL_MS = 1000;
let current: { value: string; at: number; pending?: Promise<string> } | undefined;

async function read(): Promise<string> {
  const [r] = await rows<{ v: string | number | null }>(sql`select version as v from catalog_version where id = 1`, undefined, { prepare: true });
  return String(r?.v ?? 0);
}

export const catalogCache: CachePolicy = {
  async version() {
    const now = Date.now();
    if (current && now - current.at < POLL_MS) return current.value;
    if (current?.pending) return current.pending;
    const pending = read().then((value) => {
      current = { value, at: Date.now() };
      return value;
    }, (err) => {
      current = undefined;
      throw err;
    });
    current = { value: current?.value ?? "", at: current?.at ?? 0, pending };
    return pending;
  },
};

/** This process changed the catalogue: read the version afresh on the next request. */
export function catalogChanged(): void {
  current = undefined;
}
