import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectAccount } from "@/lib/accounts/queries/accounts";
import { rows } from "@/lib/db/client";
import { writeLedger } from "@/lib/meter/ledger";
import { allowance } from "@/lib/meter/policy";
import { alertsSettled, checkUsageAlerts, sweepTrialEndings } from "@/lib/usage/alerts";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { as, DAY_MS, isoDaysFromNow, paced, setCreditsUsed, setPlan, SPEC_FIGURES, sleep, useAdminToken } from "../helpers/meter";

// Usage alerts (issue 13, docs/usage.md "Alerts") against the real PostgreSQL: spending goes
// through the API (calls, and the operator's credits route, which records its adjustment in the
// ledger), the ledger batch is written, and the check it starts mails from the durable sums.

useAdminToken();
const { trial, developer } = SPEC_FIGURES;

type OutboxMail = { kind: string; subject: string; text: string; to: string };
const mailOf = (acct: TestAccount) =>
  rows<OutboxMail>(sql`select kind, subject, text_body as text, to_address as "to" from email_outbox
    where account_id = ${acct.id} and kind like 'usage_%' order by id`);
const kindsOf = async (acct: TestAccount) => (await mailOf(acct)).map((m) => m.kind);
const alertRows = (acct: TestAccount) =>
  rows<{ period: string; kind: string }>(sql`select period, kind from usage_alerts where account_id = ${acct.id} order by period, kind`);

/** Writes the ledger's buffer and waits for the alert check each written batch starts. */
async function flushAndCheck(): Promise<void> {
  await writeLedger();
  // The ledger starts the check through a dynamic import: give it a moment to register.
  await sleep(100);
  await alertsSettled();
}

async function spendTo(acct: TestAccount, used: number): Promise<void> {
  await setCreditsUsed(acct.id, used);
  await flushAndCheck();
}

/** Reads the first `n` cards of the catalogue through the API, in pages of at most 250, paced to the trial's rate. */
async function readCards(acct: TestAccount, n: number): Promise<void> {
  let next = "/v1/cards?limit=250&select=name&orderBy=id";
  for (let seen = 0; seen < n;) {
    const page = next.replace(/limit=\d+/, `limit=${Math.min(250, n - seen)}`);
    const a = await paced(() => as(acct.key, "GET", page));
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    seen += a.body.data.length;
    next = a.body.links.next;
  }
}

describe("usage alerts: credits", () => {
  it("80% then 100% of a trial's credits, each mailed once, however often crossed or checked", async () => {
    const acct = await makeAccount({ confirmed: true });
    await spendTo(acct, Math.ceil(trial.credits * 0.8) - 1);
    expect(await kindsOf(acct)).toEqual([]);

    await spendTo(acct, trial.credits * 0.8);
    expect(await kindsOf(acct)).toEqual(["usage_credits_80"]);
    const [near] = await mailOf(acct);
    expect(near!.to).toBe(acct.email);
    expect(near!.text).toContain(`640 of 800 credits (80%)`);
    expect(near!.text).toMatch(/\/dashboard\/usage$/m);
    expect(near!.text).toMatch(/\/dashboard\/billing$/m);

    // Further spending below 100%, and checks again: nothing new.
    await spendTo(acct, 700);
    await checkUsageAlerts([acct.id]);
    expect(await kindsOf(acct)).toEqual(["usage_credits_80"]);

    await spendTo(acct, trial.credits);
    expect(await kindsOf(acct)).toEqual(["usage_credits_80", "usage_credits_100"]);
    const full = (await mailOf(acct))[1]!;
    expect(full.text).toContain("800 of 800 credits (100%)");
    expect(full.text).toContain("429 QUOTA_EXCEEDED");
    expect(full.text).toMatch(/\/dashboard\/billing$/m);

    // Down below 80% (an operator's correction) and past both again: still one of each.
    await spendTo(acct, 100);
    await spendTo(acct, trial.credits + 50);
    await checkUsageAlerts([acct.id]);
    expect(await kindsOf(acct)).toEqual(["usage_credits_80", "usage_credits_100"]);
    expect((await alertRows(acct)).map((r) => r.kind)).toEqual(["credits_100", "credits_80"]);
  });

  it("two checks at once (two instances) mail once", async () => {
    const acct = await makeAccount({ confirmed: true });
    // The spending written straight to the ledger, as another instance's batch would be, so no
    // check of this process's ledger runs before the three below.
    const period = allowance((await selectAccount(acct.id))!).period.key;
    await rows(sql`insert into usage_ledger (account_id, period, day, route, requests, credits, refunds, new_cards)
      values (${acct.id}, ${period}, current_date, 'listCards', 140, 700, 0, 0)`);
    const results = await Promise.all([checkUsageAlerts([acct.id]), checkUsageAlerts([acct.id]), checkUsageAlerts([acct.id])]);
    expect(results.flat().filter((s) => s.accountId === acct.id)).toEqual([{ accountId: acct.id, period, kind: "credits_80" }]);
    expect(await kindsOf(acct)).toEqual(["usage_credits_80"]);
  });

  it("a jump past 100% at once mails the 100% alert only; the 80% one is recorded, never sent later", async () => {
    const acct = await makeAccount({ confirmed: true });
    await spendTo(acct, trial.credits);
    expect(await kindsOf(acct)).toEqual(["usage_credits_100"]);
    expect((await alertRows(acct)).map((r) => r.kind)).toEqual(["credits_100", "credits_80"]);
  });

  it("a paid plan's new period mails again", async () => {
    const acct = await makeAccount({ plan: "developer", confirmed: true });
    await spendTo(acct, developer.credits * 0.8);
    expect(await kindsOf(acct)).toEqual(["usage_credits_80"]);
    const first = await mailOf(acct);
    expect(first[0]!.text).toContain("40,000 of 50,000 credits (80%)");
    expect(first[0]!.text).toMatch(/renew on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);

    // A new period (another plan and back: each change of plan starts one), spent to 80% again.
    await sleep(5);
    await setPlan(acct.id, "growth", isoDaysFromNow(30));
    await sleep(5);
    await setPlan(acct.id, "developer", isoDaysFromNow(30));
    await spendTo(acct, developer.credits * 0.8);
    expect(await kindsOf(acct)).toEqual(["usage_credits_80", "usage_credits_80"]);
    const periods = await alertRows(acct);
    expect(periods).toHaveLength(2);
    expect(periods[0]!.period).not.toBe(periods[1]!.period);
  });

  it("a plan without a finite limit gets none (enterprise); an unconfirmed trial gets none", async () => {
    const ent = await makeAccount({ plan: "enterprise", confirmed: true });
    await spendTo(ent, 10_000_000);
    await readCards(ent, 250);
    await flushAndCheck();
    expect(await checkUsageAlerts([ent.id])).toEqual([]);
    expect(await kindsOf(ent)).toEqual([]);
    expect(await alertRows(ent)).toEqual([]);

    const unconfirmed = await makeAccount();
    await spendTo(unconfirmed, trial.unconfirmedCredits);
    expect(await kindsOf(unconfirmed)).toEqual([]);
  });
});

describe("usage alerts: distinct cards", () => {
  it("80% then 100% of a trial's card allowance, read through the API, each mailed once", async () => {
    const acct = await makeAccount({ confirmed: true });
    await readCards(acct, trial.cards * 0.8 - 1);
    await flushAndCheck();
    expect(await kindsOf(acct)).toEqual([]);

    await readCards(acct, trial.cards * 0.8);
    await flushAndCheck();
    expect(await kindsOf(acct)).toEqual(["usage_cards_80"]);
    expect((await mailOf(acct))[0]!.text).toContain("800 of 1,000 distinct cards (80%)");

    // The same cards again add nothing; checking again mails nothing.
    await readCards(acct, trial.cards * 0.8);
    await flushAndCheck();
    await checkUsageAlerts([acct.id]);
    expect(await kindsOf(acct)).toEqual(["usage_cards_80"]);

    await readCards(acct, trial.cards);
    await flushAndCheck();
    expect(await kindsOf(acct)).toEqual(["usage_cards_80", "usage_cards_100"]);
    const full = (await mailOf(acct))[1]!;
    expect(full.text).toContain("1,000 of 1,000 distinct cards (100%)");
    expect(full.text).toContain("403 CARD_ALLOWANCE_EXCEEDED");
    // Credits of these calls are far from 80%: no credit alert.
    expect((await alertRows(acct)).map((r) => r.kind)).toEqual(["cards_100", "cards_80"]);
  });
});

describe("usage alerts: trial ending", () => {
  it("mailed once, seven days before the end, to confirmed trials only", async () => {
    const soon = await makeAccount({ confirmed: true, trialExpiresAt: isoDaysFromNow(5) });
    const later = await makeAccount({ confirmed: true, trialExpiresAt: isoDaysFromNow(8) });
    const unconfirmed = await makeAccount({ trialExpiresAt: isoDaysFromNow(5) });
    const over = await makeAccount({ confirmed: true, trialExpiresAt: new Date(Date.now() - DAY_MS).toISOString() });

    const [first, second] = await Promise.all([sweepTrialEndings(), sweepTrialEndings()]);
    const mine = (s: { accountId: string }[], a: TestAccount) => s.filter((x) => x.accountId === a.id);
    expect(mine([...first!, ...second!], soon)).toHaveLength(1);
    await sweepTrialEndings();

    expect(await kindsOf(soon)).toEqual(["usage_trial_ending"]);
    const [mail] = await mailOf(soon);
    expect(mail!.subject).toBe("PokéPrice: your trial ends in 5 days");
    expect(mail!.text).toContain("403 TRIAL_EXPIRED");
    expect(mail!.text).toMatch(/\/dashboard\/billing$/m);
    for (const a of [later, unconfirmed, over]) expect(await kindsOf(a)).toEqual([]);
    expect(await alertRows(soon)).toEqual([{ period: expect.stringMatching(/^trial:/), kind: "trial_ending" }]);
  });
});
