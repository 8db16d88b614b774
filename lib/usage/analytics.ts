import type { z } from "zod";
import type { Account } from "@/lib/accounts/types";
import { allowance } from "@/lib/meter/policy";
import { countPeriodCards, keyLabels, selectHourly, type Sums } from "./queries/read";
import type { UsageQuery } from "./schemas";

// The analytics of GET /v1/me/usage: the request log's hourly sums over a window, bucketed by
// hour or day, optionally split by route, key or status.

const HOUR = 3_600_000;
const DAY = 86_400_000;
type Range = NonNullable<z.output<typeof UsageQuery>["range"]>;
type GroupBy = z.output<typeof UsageQuery>["group_by"];

/** The window of a range: 24h is the last 24 whole hours and this one; days start at UTC midnight. */
export function windowOf(range: Range, account: Account, now: number): { from: number; to: number } {
  const to = now - (now % HOUR) + HOUR;
  const midnight = now - (now % DAY);
  switch (range) {
    case "24h": return { from: to - 25 * HOUR, to };
    case "7d": return { from: midnight - 6 * DAY, to };
    case "30d": return { from: midnight - 29 * DAY, to };
    case "period": {
      const start = Date.parse(allowance(account, now).period.start);
      return { from: start - (start % HOUR), to };
    }
  }
}

const zero = (): Sums => ({ requests: 0, credits: 0, refunds: 0, cards_added: 0 });
function add(into: Sums, r: Sums): void {
  into.requests += r.requests;
  into.credits += r.credits;
  into.refunds += r.refunds;
  into.cards_added += r.cards_added;
}

/** Every bucket of the window, the empty ones too, so a chart's axis is continuous. */
export function buckets(from: number, to: number, granularity: "hour" | "day"): string[] {
  const step = granularity === "hour" ? HOUR : DAY;
  const out: string[] = [];
  for (let t = from - (from % step); t < to; t += step) out.push(new Date(t).toISOString());
  return out;
}

const STATUS_TEXT: Record<string, string> = { "200": "200 OK", "201": "201 Created", "304": "304 Not Modified", "400": "400 Bad Request", "401": "401 Unauthorized", "403": "403 Forbidden", "404": "404 Not Found", "409": "409 Conflict", "413": "413 Too Large", "429": "429 Too Many Requests", "500": "500 Server Error", "503": "503 Unavailable" };

export async function analytics(account: Account, q: { range?: Range; granularity?: "hour" | "day"; group_by?: GroupBy }, now = Date.now()) {
  const range = q.range ?? "30d";
  const granularity = q.granularity ?? (range === "24h" ? "hour" : "day");
  const groupBy = q.group_by ?? null;
  const { from, to } = windowOf(range, account, now);
  const a = allowance(account, now);
  const [found, cardsUsed, labels] = await Promise.all([
    selectHourly(account.id, new Date(from).toISOString(), new Date(to).toISOString(), granularity, groupBy),
    countPeriodCards(account.id, a.period.key),
    groupBy === "key" ? keyLabels(account.id) : Promise.resolve(new Map<string, string>()),
  ]);
  const series = new Map(buckets(from, to, granularity).map((start) => [start, { start, ...zero(), ...(groupBy ? { groups: {} as Record<string, Sums> } : {}) }]));
  const groups = new Map<string, Sums>();
  const totals = zero();
  for (const r of found) {
    const start = new Date(r.start).toISOString();
    let b = series.get(start);
    if (!b) series.set(start, (b = { start, ...zero(), ...(groupBy ? { groups: {} } : {}) }));
    add(b, r);
    add(totals, r);
    if (!groupBy) continue;
    add((b.groups![r.grp] ??= zero()), r);
    let g = groups.get(r.grp);
    if (!g) groups.set(r.grp, (g = zero()));
    add(g, r);
  }
  const label = (g: string) => (groupBy === "key" ? labels.get(g) ?? (g ? `${g} (deleted)` : "no key") : groupBy === "status" ? STATUS_TEXT[g] ?? g : g);
  return {
    range, granularity, group_by: groupBy, from: new Date(from).toISOString(), to: new Date(to).toISOString(), totals,
    series: [...series.values()].sort((x, y) => x.start.localeCompare(y.start)),
    groups: [...groups].map(([group, s]) => ({ group, label: label(group), ...s })).sort((x, y) => y.credits - x.credits || y.requests - x.requests || x.group.localeCompare(y.group)),
    cards: { used: cardsUsed, limit: a.cards >= 0 ? a.cards : null },
  };
}
