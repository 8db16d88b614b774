// The one cost table (SPEC.md "Cost and plan table"). The meter charges from it and the
// OpenAPI document prints it, so the two cannot disagree.

export type Plan = "trial" | "developer" | "growth" | "professional" | "enterprise";

export type CostInput = { query: Record<string, unknown>; params: Record<string, unknown> };

export type CostRule = {
  /** Credits the call costs, computed from the validated input before the handler runs. */
  credits: (input: CostInput) => number;
  /** The rule as the documentation states it. */
  text: string;
  /** Minimum plan; absent means every plan, the trial included. */
  minPlan?: Plan;
  /**
   * How a trial meets a minimum plan: `calls` of a counted feature after email confirmation,
   * or `credits` (allowed after confirmation, paid in trial credits). Absent: not at all.
   */
  trial?: { calls: string } | "credits";
  /** Never costs a credit: no quota, plan or trial-expiry refusal can happen (the document omits them). */
  alwaysFree?: true;
};

const per = (n: number, size: number) => Math.max(1, Math.ceil(n / size));
const includes = (q: Record<string, unknown>, name: string) =>
  String(q.include ?? "").toLowerCase().split(",").map((s) => s.trim()).includes(name);
const limitOf = (q: Record<string, unknown>) => (typeof q.limit === "number" ? q.limit : 50);
const idCount = (q: Record<string, unknown>) =>
  String(q.ids ?? "").split(",").map((s) => s.trim()).filter(Boolean).length;

const fixed = (credits: number, text = `${credits} credit${credits === 1 ? "" : "s"}`): CostRule => ({ credits: () => credits, text });
const free = (text = "free, no key"): CostRule => ({ credits: () => 0, text });

/** Card lists: 1 per 50 requested rows, rounded up; include=prices makes it 4 per 25. */
const cardPage: CostRule = {
  credits: ({ query }) => (includes(query, "prices") ? 4 * per(limitOf(query), 25) : per(limitOf(query), 50)),
  text: "1 per 50 requested (limit), rounded up; include=index adds nothing; include=prices 4 per 25 requested (250 costs 40)",
};

/** What an identify costs before its includes, and all that an empty no_match answer costs. */
export const IDENTIFY_BASE = 25;

export const COSTS = {
  accountsFree: free(),
  reference: free(),
  status: free(),
  health: free("free, no key"),
  openapi: free(),
  pricesSources: free(),
  cardsList: cardPage,
  setCards: cardPage,
  cardGet: {
    credits: ({ query }) => (includes(query, "prices") ? 2 : 1),
    text: "1; 2 with include=prices (same as the prices route)",
  },
  cardsBatch: {
    // Every requested id counts, unresolved and repeated ones included.
    credits: ({ query }) => {
      const n = idCount(query);
      if (includes(query, "prices")) return 4 * per(n, 25);
      return per(n, 25) + (includes(query, "index") ? per(n, 50) : 0);
    },
    text: "1 per 25 requested ids; include=index adds 1 per 50; include=prices 4 per 25 instead; rounded up, counting unresolved and repeated ids",
  },
  setsList: fixed(1, "1 per page, whatever the limit"),
  setGet: fixed(1),
  artistsList: fixed(1, "1 per page, whatever the limit"),
  artistGet: fixed(1),
  seriesList: fixed(1, "1 per page, whatever the limit"),
  sealedList: {
    credits: ({ query }) => (includes(query, "prices") ? 4 * per(limitOf(query), 25) : per(limitOf(query), 50)),
    text: "1 per 50 requested (limit), rounded up; include=index adds nothing; include=prices 4 per 25 requested, as for cards",
  },
  sealedGet: {
    credits: ({ query }) => (includes(query, "prices") ? 2 : 1),
    text: "1; 2 with include=prices (same as the sealed prices route)",
  },
  cardPrices: fixed(2),
  sealedPrices: fixed(2),
  pricesCurrent: { credits: ({ query }) => 4 * per(idCount(query), 25), text: "4 per 25 ids, rounded up (50 ids: 8)" },
  priceHistory: fixed(5),
  priceStats: fixed(2),
  movers: { ...fixed(3), minPlan: "growth" },
  changes: fixed(1, "1 per page"),
  bulk: fixed(1),
  bulkDownload: fixed(1, "1 per file downloaded"),
  identify: {
    credits: ({ query }) => {
      const k = typeof query.top_k === "number" ? query.top_k : 5;
      return IDENTIFY_BASE + (includes(query, "index") ? per(k, 50) : 0) + (includes(query, "prices") ? 4 * per(k, 25) : 0);
    },
    text: "25 base, plus ceil(top_k/50) with include=index, plus 4 x ceil(top_k/25) with include=prices; an empty no_match costs 25",
    minPlan: "growth",
    trial: { calls: "identify" },
  },
  centeringMeasure: { ...fixed(25), minPlan: "growth", trial: { calls: "centering_measure" } },
  centeringConfirm: { ...fixed(5), minPlan: "growth", trial: { calls: "centering_confirm" } },
  centeringGrade: { ...fixed(1), minPlan: "growth", trial: "credits" },
  centeringStandards: { ...fixed(1), minPlan: "growth", trial: "credits" },
  account: { credits: () => 0, text: "0 credits; answers after trial expiry", alwaysFree: true },
  billing: { credits: () => 0, text: "0 credits; answers after trial expiry, when suspended and after cancellation", alwaysFree: true },
  billingWebhook: free("free; no key: Stripe signs the body (Stripe-Signature)"),
} satisfies Record<string, CostRule>;
