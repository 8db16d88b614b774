import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { call } from "./api";
import { expectEnvelope, type ErrorBody } from "./expect";

// What the meter tests share: the figures SPEC.md states, the operator routes of CONTRACT.md §6
// (they move the clock-dependent states), and the checks of SPEC.md's meter-header table.

/** Figures stated by SPEC.md (Limits, States and transitions) and CONTRACT.md §2. */
export const SPEC_FIGURES = {
  trial: {
    /** "RateLimit-Limit … on the trial 10 while the pace is 5 per second". */
    burst: 10,
    rate: 5,
    perMinute: 300,
    policy: "5;w=1;burst=10, 300;w=60",
    inFlight: 3,
    credits: 800,
    /** CONTRACT.md §2: before the address is confirmed. */
    unconfirmedCredits: 50,
    dailyCap: 400,
    cards: 1000,
    days: 30,
  },
  developer: { rate: 30, credits: 50_000, cards: 30_000 },
  growth: { rate: 80, credits: 200_000 },
  /** GET /v1/me: "For a trial, suggestions start at 50 credits, 50 distinct cards, or seven days before expiry." */
  trialSuggestion: { credits: 50, cards: 50, days: 7 },
  nearLimit: 0.8,
} as const;

export const DAY_MS = 86_400_000;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ── operator routes ──────────────────────────────────────────────────────────

/** Operator routes need ADMIN_TOKEN in this process's environment; each file sets its own. */
export function useAdminToken(token = `admin-${randomBytes(16).toString("hex")}`): string {
  process.env.ADMIN_TOKEN = token;
  return token;
}

export async function operator(method: "GET" | "POST", path: string, body?: unknown): Promise<{ res: Response; body: any }> {
  const token = process.env.ADMIN_TOKEN;
  if (!token) throw new Error("set ADMIN_TOKEN first (useAdminToken)");
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, "x-operator": "vitest" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await call(method, `/v1/admin/accounts${path}`, { headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : null;
  if (res.status !== 200) throw new Error(`operator ${method} ${path} → ${res.status} ${text}`);
  return { res, body: parsed };
}

export const setTrialExpiry = (id: string, expiresAt: string) => operator("POST", `/${id}/trial`, { expires_at: expiresAt });
export const setCreditsUsed = (id: string, used: number) => operator("POST", `/${id}/credits`, { used });
export const setPlan = (id: string, plan: string, resetsAt?: string) =>
  operator("POST", `/${id}/plan`, resetsAt ? { plan, resets_at: resetsAt } : { plan });
export const confirmByOperator = (id: string) => operator("POST", `/${id}/confirm-email`);

// ── calls ────────────────────────────────────────────────────────────────────

export type Answer = { res: Response; status: number; body: any; h: (name: string) => string | null };

/** A call with one account's key (X-Api-Key), parsed. */
export async function as(key: string, method: string, path: string, extra: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { "x-api-key": key, ...extra.headers };
  if (extra.body !== undefined) headers["content-type"] = "application/json";
  const res = await call(method, path, { headers, body: extra.body === undefined ? undefined : JSON.stringify(extra.body) });
  return parse(res);
}

export async function parse(res: Response): Promise<Answer> {
  // A file answer (bulk downloads) is bytes, not JSON: its body here is its size.
  if (!/json/.test(res.headers.get("content-type") ?? "json")) {
    return { res, status: res.status, body: { bytes: (await res.arrayBuffer()).byteLength }, h: (n) => res.headers.get(n) };
  }
  const text = await res.text();
  return { res, status: res.status, body: text ? JSON.parse(text) : null, h: (n) => res.headers.get(n) };
}

/** An error answer: SPEC.md envelope, status, code, X-Error-Code, and the refund. */
export function expectRefusal(a: Answer, status: number, code: string): NonNullable<ErrorBody["error"]["details"]> {
  expect({ status: a.status, code: a.body?.error?.code }).toEqual({ status, code });
  const error = expectEnvelope(a.res, a.body);
  expect(a.h("x-error-code")).toBe(code);
  expect(a.h("x-credits-cost")).toBe("0");
  return error.details ?? {};
}

export const int = (a: Answer, name: string): number => {
  const v = a.h(name);
  expect(v, `${name} header`).toMatch(/^\d+$/);
  return Number(v);
};

const RATE_HEADERS = ["ratelimit-limit", "ratelimit-policy", "ratelimit-remaining", "ratelimit-reset"];
const QUOTA_HEADERS = ["x-quota-limit", "x-quota-remaining", "x-quota-reset"];

/** SPEC.md Errors 7: refused before the meter — no quota or rate headers, no Retry-After. */
export function expectNoMeterHeaders(a: Answer): void {
  for (const h of [...RATE_HEADERS, ...QUOTA_HEADERS, "retry-after", "x-cards-used", "x-cards-limit", "x-cards-warning"]) {
    expect(a.h(h), h).toBeNull();
  }
}

/** The meter-header table on a trial key: capacity 10, the exact policy, the quota of the trial. */
export function expectTrialMeterHeaders(a: Answer, opts: { creditLimit?: number } = {}): void {
  expect(a.h("ratelimit-limit")).toBe(String(SPEC_FIGURES.trial.burst));
  expect(a.h("ratelimit-policy")).toBe(SPEC_FIGURES.trial.policy);
  expect(int(a, "ratelimit-remaining")).toBeLessThanOrEqual(SPEC_FIGURES.trial.burst);
  expect(a.h("x-quota-limit")).toBe(String(opts.creditLimit ?? SPEC_FIGURES.trial.credits));
  int(a, "x-quota-remaining");
  // The trial's credits never renew: no period reset to announce.
  expect(a.h("x-quota-reset")).toBeNull();
  expectTrialExpiryHeader(a);
  int(a, "x-credits-cost");
}

export function expectTrialExpiryHeader(a: Answer): void {
  const v = a.h("x-trial-expires-at");
  expect(v, "X-Trial-Expires-At").toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
}

/** A paid plan's meter headers: its pace, a period quota, and nothing of a trial. */
export function expectPaidMeterHeaders(a: Answer, plan: { rate: number; credits: number }): void {
  int(a, "ratelimit-limit");
  expect(a.h("ratelimit-policy")).toMatch(new RegExp(`^${plan.rate};w=1(;|$)`));
  int(a, "ratelimit-remaining");
  expect(a.h("x-quota-limit")).toBe(String(plan.credits));
  int(a, "x-quota-remaining");
  expect(a.h("x-trial-expires-at")).toBeNull();
  int(a, "x-credits-cost");
}

/** Retries while the token bucket says RATE_LIMITED per second (the trial refills a token every 200 ms). */
export async function paced(fn: () => Promise<Answer>, tries = 40): Promise<Answer> {
  for (let i = 0; ; i++) {
    const a = await fn();
    if (a.body?.error?.code !== "RATE_LIMITED" || i >= tries) return a;
    const d = a.body.error.details ?? {};
    if (d.limit !== "per_second") throw new Error(`per-minute window reached: ${JSON.stringify(d)}`);
    await sleep(Number(d.retry_after_ms ?? 200) + 10);
  }
}

export const unknownKey = () => `ppk_live_${randomBytes(24).toString("base64url").slice(0, 32)}`;
export const isoDaysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();
/** Seconds until the next midnight UTC, as SPEC.md's daily-cap details count them. */
export const secondsToMidnightUtc = (now = Date.now()) => Math.ceil((DAY_MS - (now % DAY_MS)) / 1000);

// ── app servers ──────────────────────────────────────────────────────────────

/**
 * Waits until a server's meter counts this key's calls: its Redis answers, and the account's
 * period is rebuilt (on a Redis that just started, after the rebuild grace).
 */
export async function meterCounting(url: string, key: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const res = await fetch(`${url}/v1/me`, { headers: { "x-api-key": key } }).catch(() => null);
    await res?.arrayBuffer();
    if (res?.status === 200 && res.headers.get("x-ratelimit-degraded") === null) return;
    await sleep(100);
  }
  throw new Error(`the meter of ${url} did not count within ${ms} ms`);
}
