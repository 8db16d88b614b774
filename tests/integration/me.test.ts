import { describe, expect, it } from "vitest";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import {
  as, DAY_MS, int, isoDaysFromNow, setCreditsUsed, setPlan, setTrialExpiry, SPEC_FIGURES, useAdminToken, type Answer,
} from "../helpers/meter";

// GET /v1/me (CONTRACT.md §3, SPEC.md Authentication 8) and GET /v1/me/usage.

useAdminToken();

const me = async (key: string) => {
  const a = await as(key, "GET", "/v1/me");
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  expect(a.h("x-credits-cost")).toBe("0");
  return a.body.data;
};
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const { trial, developer, growth, nearLimit, trialSuggestion } = SPEC_FIGURES;

/** Page sizes (at most 250) that add up to n. */
const chunks = (n: number) => Array.from({ length: Math.ceil(n / 250) }, (_, i) => Math.min(250, n - i * 250));

/** Reads distinct cards from the start of the catalogue, following links.next; returns the last answer. */
async function readCards(acct: TestAccount, counts: number[]): Promise<Answer> {
  let next = `/v1/cards?limit=${counts[0]}&select=name`;
  let last: Answer | undefined;
  for (let i = 0; i < counts.length; i++) {
    last = await as(acct.key, "GET", next);
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    if (counts[i + 1] !== undefined) next = last.body.links.next.replace(/limit=\d+/, `limit=${counts[i + 1]}`);
  }
  return last!;
}

describe("GET /v1/me", () => {
  it("a trial: quota with trial_expires_at, trial_expired, daily_cap and daily_used; cards with the trial's allowance", async () => {
    const acct = await makeAccount({ confirmed: true });
    const spend = await as(acct.key, "GET", "/v1/cards?limit=12&select=name");
    const d = await me(acct.key);
    expect(Object.keys(d)).toEqual(expect.arrayContaining(["account_id", "email", "email_confirmed", "plan", "quota", "cards", "usage_warnings", "upgrade_suggestion"]));
    expect(d).toMatchObject({ account_id: acct.id, email: acct.email, email_confirmed: true, plan: "trial" });
    const cost = int(spend, "x-credits-cost");
    expect(d.quota).toMatchObject({
      credits_limit: trial.credits, credits_used: cost, credits_remaining: trial.credits - cost,
      daily_cap: trial.dailyCap, daily_used: cost, trial_expired: false,
    });
    expect(d.quota.trial_expires_at).toMatch(RFC3339);
    expect(d.quota.trial_expires_at).toBe(spend.h("x-trial-expires-at"));
    expect(d.quota.resets_at ?? null).toBeNull();
    expect(d.cards).toMatchObject({ used: spend.body.data.length, limit: trial.cards });
    expect(d.usage_warnings).toEqual([]);
    expect(d.upgrade_suggestion).toBeNull();
  });

  it("an unconfirmed trial counts against its 50 credits", async () => {
    const acct = await makeAccount();
    const d = await me(acct.key);
    expect(d.email_confirmed).toBe(false);
    expect(d.quota).toMatchObject({ credits_limit: trial.unconfirmedCredits, credits_used: 0, credits_remaining: trial.unconfirmedCredits });
  });

  it("an expired trial still answers, with trial_expired true", async () => {
    const acct = await makeAccount({ confirmed: true });
    const at = new Date(Date.now() - 1000).toISOString();
    await setTrialExpiry(acct.id, at);
    const d = await me(acct.key);
    expect(d.quota.trial_expired).toBe(true);
    expect(Date.parse(d.quota.trial_expires_at)).toBe(Date.parse(at));
  });

  it("a paid plan: resets_at, no trial fields; Growth has no card allowance", async () => {
    const dev = await makeAccount({ confirmed: true });
    const resetsAt = isoDaysFromNow(20);
    await setPlan(dev.id, "developer", resetsAt);
    const d = await me(dev.key);
    expect(d.plan).toBe("developer");
    expect(d.quota).toMatchObject({ credits_limit: developer.credits, credits_used: 0, credits_remaining: developer.credits });
    expect(Date.parse(d.quota.resets_at)).toBe(Date.parse(resetsAt));
    for (const k of ["trial_expires_at", "trial_expired", "daily_cap", "daily_used"]) expect(d.quota).not.toHaveProperty(k);
    expect(d.cards).toMatchObject({ used: 0, limit: developer.cards });
    expect(d.upgrade_suggestion).toBeNull();

    const gr = await makeAccount({ plan: "growth", confirmed: true });
    const g = await me(gr.key);
    expect(g.quota.credits_limit).toBe(growth.credits);
    expect(g.cards.limit).toBeNull();
  });
});

describe("usage_warnings: from 80% of either finite limit", () => {
  it("credits: none just below 80%, NEAR_LIMIT from 80%", async () => {
    const acct = await makeAccount({ confirmed: true });
    const threshold = Math.ceil(trial.credits * nearLimit);
    await setCreditsUsed(acct.id, threshold - 1);
    expect((await me(acct.key)).usage_warnings).toEqual([]);
    await setCreditsUsed(acct.id, threshold);
    const w = (await me(acct.key)).usage_warnings;
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ code: "NEAR_LIMIT", resource: "credits", used: threshold, limit: trial.credits, stale: false });
    expect(typeof w[0].message).toBe("string");
  });

  it("credits on a paid plan, against its period's credits", async () => {
    const acct = await makeAccount({ plan: "developer", confirmed: true });
    const threshold = Math.ceil(developer.credits * nearLimit);
    await setCreditsUsed(acct.id, threshold);
    expect((await me(acct.key)).usage_warnings).toEqual([
      expect.objectContaining({ code: "NEAR_LIMIT", resource: "credits", used: threshold, limit: developer.credits }),
    ]);
  });

  it("distinct cards: NEAR_LIMIT from 80% of the trial's 1,000", async () => {
    const acct = await makeAccount({ confirmed: true });
    const threshold = Math.ceil(trial.cards * nearLimit);
    // Pages of distinct cards: 799, then one more.
    await readCards(acct, [...chunks(threshold - 1), 1]);
    const d = await me(acct.key);
    expect(d.cards.used).toBe(threshold);
    expect(d.usage_warnings).toEqual([expect.objectContaining({ code: "NEAR_LIMIT", resource: "cards", used: threshold, limit: trial.cards, stale: false })]);
  });

  it("distinct cards just below 80%: no warning", async () => {
    const acct = await makeAccount({ confirmed: true });
    const threshold = Math.ceil(trial.cards * nearLimit);
    await readCards(acct, chunks(threshold - 1));
    const d = await me(acct.key);
    expect(d.cards.used).toBe(threshold - 1);
    expect(d.usage_warnings.filter((w: { resource: string }) => w.resource === "cards")).toEqual([]);
  });
});

describe("upgrade_suggestion", () => {
  const expectSuggests = (s: any, plan: string, figures: { rate: number; credits: number }) => {
    expect(s).toMatchObject({ plan, credits_per_month: figures.credits, requests_per_second: figures.rate });
    expect(typeof s.reason).toBe("string");
  };

  it("a trial: null below 50 credits, a paid plan from 50", async () => {
    const acct = await makeAccount({ confirmed: true });
    await setCreditsUsed(acct.id, trialSuggestion.credits - 1);
    expect((await me(acct.key)).upgrade_suggestion).toBeNull();
    await setCreditsUsed(acct.id, trialSuggestion.credits);
    const s = (await me(acct.key)).upgrade_suggestion;
    expectSuggests(s, "developer", developer);
    // "Paid plans start at 29 EUR a month" (SPEC.md Authentication 6).
    expect(s.monthly_eur).toBe(29);
  });

  it("a trial: from 50 distinct cards", async () => {
    const acct = await makeAccount({ confirmed: true });
    await readCards(acct, [trialSuggestion.cards - 1]);
    expect((await me(acct.key)).upgrade_suggestion).toBeNull();
    await readCards(acct, [trialSuggestion.cards]);
    const d = await me(acct.key);
    expect(d.cards.used).toBe(trialSuggestion.cards);
    expectSuggests(d.upgrade_suggestion, "developer", developer);
  });

  it("a trial: from seven days before expiry", async () => {
    const acct = await makeAccount({ confirmed: true });
    const HOUR = 3_600_000;
    await setTrialExpiry(acct.id, new Date(Date.now() + trialSuggestion.days * DAY_MS + HOUR).toISOString());
    expect((await me(acct.key)).upgrade_suggestion).toBeNull();
    await setTrialExpiry(acct.id, new Date(Date.now() + trialSuggestion.days * DAY_MS - HOUR).toISOString());
    expectSuggests((await me(acct.key)).upgrade_suggestion, "developer", developer);
  });

  it("a paid plan: from 80% of its credits", async () => {
    const acct = await makeAccount({ plan: "developer", confirmed: true });
    const threshold = Math.ceil(developer.credits * nearLimit);
    await setCreditsUsed(acct.id, threshold - 1);
    expect((await me(acct.key)).upgrade_suggestion).toBeNull();
    await setCreditsUsed(acct.id, threshold);
    expectSuggests((await me(acct.key)).upgrade_suggestion, "growth", growth);
  });

  it("Professional from 80% too: Enterprise, negotiated (no price, no fixed credits); Enterprise has none above it", async () => {
    const acct = await makeAccount({ plan: "professional", confirmed: true });
    const limit = (await me(acct.key)).quota.credits_limit as number;
    await setCreditsUsed(acct.id, Math.ceil(limit * nearLimit) - 1);
    expect((await me(acct.key)).upgrade_suggestion).toBeNull();
    await setCreditsUsed(acct.id, Math.ceil(limit * nearLimit));
    const s = (await me(acct.key)).upgrade_suggestion;
    expect(s).toMatchObject({ plan: "enterprise", monthly_eur: null, credits_per_month: null });
    expect(typeof s.reason).toBe("string");
    const top = await makeAccount({ plan: "enterprise", confirmed: true });
    expect((await me(top.key)).upgrade_suggestion).toBeNull();
  });
});

describe("GET /v1/me/usage", () => {
  it("per day and per route: credits are the X-Credits-Cost of the 2xx answers, refunded answers are counted as refunds", async () => {
    const acct = await makeAccount({ confirmed: true });
    const calls: { route: string; a: Answer }[] = [];
    const run = async (route: string, path: string, headers: Record<string, string> = {}) => {
      const a = await as(acct.key, "GET", path, { headers });
      calls.push({ route, a });
      return a;
    };
    await run("listSets", "/v1/sets?limit=1");
    const list = await run("listCards", "/v1/cards?limit=51&select=name");
    const revalidated = await run("listCards", "/v1/cards?limit=51&select=name", { "if-none-match": list.h("etag")! });
    expect(revalidated.status).toBe(304);
    expect((await run("getCard", "/v1/cards/nope")).status).toBe(404);
    await run("getCard", `/v1/cards/${list.body.data[0].id}`);
    await run("getMe", "/v1/me");

    const u = await as(acct.key, "GET", "/v1/me/usage");
    expect(u.status).toBe(200);
    expect(u.h("x-credits-cost")).toBe("0");
    const served = calls.filter((c) => c.a.status >= 200 && c.a.status < 300);
    const refunded = calls.filter((c) => c.a.status >= 300);
    for (const c of refunded) expect(c.a.h("x-credits-cost")).toBe("0");
    const credits = served.reduce((n, c) => n + int(c.a, "x-credits-cost"), 0);
    const today = new Date().toISOString().slice(0, 10);

    expect(u.body.data.totals).toEqual({ requests: calls.length, credits, refunds: refunded.length });
    expect(u.body.data.to).toBe(today);
    expect(u.body.data.days).toEqual([
      { date: today, requests: calls.length, credits, refunds: refunded.length, new_cards: list.body.data.length },
    ]);
    // Named as the request log names them; the operationId beside.
    const names: Record<string, string> = { listSets: "GET /v1/sets", listCards: "GET /v1/cards", getCard: "GET /v1/cards/{id}", getMe: "GET /v1/me" };
    const expected = new Map<string, { route: string; operation_id: string; requests: number; credits: number; refunds: number }>();
    for (const c of calls) {
      const r = expected.get(c.route) ?? { route: names[c.route]!, operation_id: c.route, requests: 0, credits: 0, refunds: 0 };
      r.requests++;
      if (c.a.status < 300) r.credits += int(c.a, "x-credits-cost");
      else r.refunds++;
      expected.set(c.route, r);
    }
    expect([...u.body.data.routes].sort((x, y) => x.route.localeCompare(y.route)))
      .toEqual([...expected.values()].sort((x, y) => x.route.localeCompare(y.route)));
    // The meter agrees with the ledger.
    expect((await me(acct.key)).quota.credits_used).toBe(credits);
    // An operator's setting of the credits is in the totals, but is no route's.
    useAdminToken();
    await setCreditsUsed(acct.id, credits + 100);
    const adjusted = (await as(acct.key, "GET", "/v1/me/usage")).body.data;
    expect(adjusted.totals.credits).toBe(credits + 100);
    expect(adjusted.routes.map((r: { route: string }) => r.route).sort()).toEqual([...[...expected.keys()].map((k) => names[k]!), "GET /v1/me/usage"].sort());
  });
});
