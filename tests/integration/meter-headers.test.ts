import { beforeAll, describe, expect, it } from "vitest";
import { getJson } from "../helpers/api";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import {
  as, expectRefusal, expectTrialMeterHeaders, int, paced, setCreditsUsed, SPEC_FIGURES, useAdminToken, type Answer,
} from "../helpers/meter";

// SPEC.md Limits: the credit arithmetic of X-Quota-Remaining, the cost table on real routes,
// and the distinct-card headers with CARD_ALLOWANCE_EXCEEDED.

useAdminToken();
const { trial } = SPEC_FIGURES;

describe("X-Quota-Remaining: served, refunded and rejected calls", () => {
  it("a served call includes its charge; a 404 shows the balance before the call and costs 0", async () => {
    const acct = await makeAccount({ confirmed: true });
    const served = await as(acct.key, "GET", "/v1/sets?limit=1");
    expect(served.status).toBe(200);
    expect(int(served, "x-quota-remaining")).toBe(trial.credits - int(served, "x-credits-cost"));
    const before = int(served, "x-quota-remaining");

    const missing = await as(acct.key, "GET", "/v1/cards/nope");
    expectRefusal(missing, 404, "CARD_NOT_FOUND");
    expectTrialMeterHeaders(missing);
    expect(int(missing, "x-quota-remaining")).toBe(before);
    expect(missing.h("x-cards-used")).toBeNull();
    expect(missing.h("x-cards-warning")).toBeNull();

    // The refund is the account's at once: the next answer counts from the same balance.
    const next = await as(acct.key, "GET", "/v1/sets?limit=1");
    expect(int(next, "x-quota-remaining")).toBe(before - int(next, "x-credits-cost"));
  });

  it("a 304 costs 0 and shows the balance before the call", async () => {
    const acct = await makeAccount({ confirmed: true });
    const first = await as(acct.key, "GET", "/v1/cards?limit=51&select=name");
    expect(first.status).toBe(200);
    const before = int(first, "x-quota-remaining");
    const again = await as(acct.key, "GET", "/v1/cards?limit=51&select=name", { headers: { "if-none-match": first.h("etag")! } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.h("x-credits-cost")).toBe("0");
    expectTrialMeterHeaders(again);
    expect(int(again, "x-quota-remaining")).toBe(before);
    expect(again.h("x-cards-warning")).toBeNull();
    const next = await as(acct.key, "GET", "/v1/sets?limit=1");
    expect(int(next, "x-quota-remaining")).toBe(before - int(next, "x-credits-cost"));
  });

  it("a revalidation is free whatever the balance: spent credits still get the 304, and the refusal for anything else", async () => {
    const acct = await makeAccount({ plan: "growth", confirmed: true });
    const first = await as(acct.key, "GET", "/v1/cards/base1-4/prices/history");
    expect(first.status).toBe(200);
    // 2 credits left, the route costs 5: it was 429 QUOTA_EXCEEDED for the 304 too.
    await setCreditsUsed(acct.id, 200_000 - 2);
    const again = await as(acct.key, "GET", "/v1/cards/base1-4/prices/history", { headers: { "if-none-match": first.h("etag")! } });
    expect(again.status).toBe(304);
    expect(again.h("x-credits-cost")).toBe("0");
    expect(int(again, "x-quota-remaining")).toBe(2);
    expect(again.h("retry-after")).toBeNull();
    const changed = await as(acct.key, "GET", "/v1/cards/base1-4/prices/history", { headers: { "if-none-match": '"another"' } });
    expectRefusal(changed, 429, "QUOTA_EXCEEDED");
    const missing = await as(acct.key, "GET", "/v1/cards/nope/prices/history", { headers: { "if-none-match": first.h("etag")! } });
    expectRefusal(missing, 429, "QUOTA_EXCEEDED");
    const me = await as(acct.key, "GET", "/v1/me");
    expect(me.body.data.quota.credits_used).toBe(200_000 - 2);
  });

  it("free revalidations of a spent account keep the plan's pace: past the trial's burst, RATE_LIMITED", async () => {
    const acct = await makeAccount({ confirmed: true });
    const etag = (await as(acct.key, "GET", "/v1/sets?limit=1")).h("etag")!;
    await setCreditsUsed(acct.id, trial.credits);
    // A refusal for spent credits takes no token: the revalidations it let through were unlimited.
    const answers = [];
    for (let i = 0; i < trial.burst + 5; i++) answers.push(await as(acct.key, "GET", "/v1/sets?limit=1", { headers: { "if-none-match": etag } }));
    expect(answers[0]!.status).toBe(304);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body.error.code)).toContain("RATE_LIMITED");
    expect(answers.filter((a) => a.status === 304).length).toBeLessThanOrEqual(trial.burst + 2);
    const me = await paced(() => as(acct.key, "GET", "/v1/me"));
    expect(me.body.data.quota.credits_used).toBe(trial.credits);
  });

  it("a 429 reserves nothing: the refused cost is not taken, a cheaper call still fits", async () => {
    const acct = await makeAccount({ confirmed: true });
    const left = 3;
    await setCreditsUsed(acct.id, trial.credits - left);
    const refused = await as(acct.key, "GET", "/v1/cards?limit=250"); // 5 credits
    expectRefusal(refused, 429, "QUOTA_EXCEEDED");
    expect(int(refused, "x-quota-remaining")).toBe(left);
    const fits = await as(acct.key, "GET", "/v1/sets?limit=1"); // 1 credit
    expect(fits.status).toBe(200);
    expect(int(fits, "x-quota-remaining")).toBe(left - int(fits, "x-credits-cost"));
  });

  it("a query error is refused before the meter: cost 0, nothing reserved", async () => {
    const acct = await makeAccount({ confirmed: true });
    const bad = await as(acct.key, "GET", "/v1/cards?limit=many");
    expectRefusal(bad, 400, "INVALID_PARAMETER");
    const me = await as(acct.key, "GET", "/v1/me");
    expect(me.body.data.quota.credits_used).toBe(0);
  });

  it("the period's credits used equal the X-Credits-Cost of the served answers", async () => {
    const acct = await makeAccount({ confirmed: true });
    const answers: Answer[] = [];
    for (const path of ["/v1/sets", "/v1/cards/nope", "/v1/cards?limit=51", "/v1/series", "/v1/cards?limit=300", "/v1/artists?limit=250"]) {
      answers.push(await as(acct.key, "GET", path));
    }
    const charged = answers.filter((a) => a.status < 300).reduce((n, a) => n + int(a, "x-credits-cost"), 0);
    for (const a of answers.filter((x) => x.status >= 400)) expect(a.h("x-credits-cost")).toBe("0");
    const me = await as(acct.key, "GET", "/v1/me");
    expect(me.body.data.quota.credits_used).toBe(charged);
    expect(me.body.data.quota.credits_remaining).toBe(trial.credits - charged);
  });
});

describe("costs of SPEC.md's table, on the real routes", () => {
  let key: string;
  const sample = { cards: [] as string[], set: "", artist: "", sealed: "" };

  beforeAll(async () => {
    key = (await makeAccount({ plan: "growth", confirmed: true })).key;
    sample.cards = (await getJson("/v1/cards?limit=30&select=name")).body.data.map((c: { id: string }) => c.id);
    sample.set = (await getJson("/v1/sets?limit=1")).body.data[0].code;
    sample.artist = (await getJson("/v1/artists?limit=1")).body.data[0].slug;
    sample.sealed = (await getJson("/v1/sealed?limit=1")).body.data[0].id;
  });

  /** The call's X-Credits-Cost, checked against the drop of X-Quota-Remaining across it. */
  let lastRemaining: number | undefined;
  async function costOf(path: string): Promise<number> {
    const a = await as(key, "GET", path);
    expect(a.status, `${path}: ${JSON.stringify(a.body)}`).toBe(200);
    const cost = int(a, "x-credits-cost");
    const remaining = int(a, "x-quota-remaining");
    if (lastRemaining !== undefined) expect(remaining, path).toBe(lastRemaining - cost);
    lastRemaining = remaining;
    return cost;
  }

  it("card lists: 1 per 50 requested rows, rounded up (12, 50, 51, 250 → 1, 1, 2, 5), not per row returned", async () => {
    expect(await costOf("/v1/cards?limit=12")).toBe(1);
    expect(await costOf("/v1/cards?limit=50")).toBe(1);
    expect(await costOf("/v1/cards?limit=51")).toBe(2);
    expect(await costOf("/v1/cards?limit=250")).toBe(5);
    expect(await costOf("/v1/cards")).toBe(1); // the default limit is 50
    expect(await costOf(`/v1/sets/${encodeURIComponent(sample.set)}/cards?limit=51`)).toBe(2);
    // Requested, not returned: a page of 250 that finds one card costs as much as a full one.
    expect(await costOf(`/v1/cards?limit=250&q=${encodeURIComponent(`id:${sample.cards[0]}`)}`)).toBe(5);
  });

  it("include=index adds nothing; include=prices is 4 per 25 rows (250 costs 40)", async () => {
    expect(await costOf("/v1/cards?limit=250&include=index")).toBe(5);
    expect(await costOf("/v1/cards?limit=250&include=prices")).toBe(40);
    expect(await costOf("/v1/cards?limit=25&include=prices")).toBe(4);
    expect(await costOf("/v1/cards?limit=26&include=prices")).toBe(8);
  });

  it("sealed list: 1 per 50 requested", async () => {
    expect(await costOf("/v1/sealed?limit=50")).toBe(1);
    expect(await costOf("/v1/sealed?limit=51")).toBe(2);
    expect(await costOf("/v1/sealed?limit=51&include=index")).toBe(2);
  });

  it("batch: 1 per 25 ids, counting repeated and unresolved ones; include=index 1 per 50 more; include=prices 4 per 25", async () => {
    const ids25 = sample.cards.slice(0, 25);
    expect(await costOf(`/v1/cards/batch?ids=${ids25.join(",")}`)).toBe(1);
    // 20 real ids, 3 of them again, 3 that resolve to nothing: 26 requested.
    const ids26 = [...sample.cards.slice(0, 20), ...sample.cards.slice(0, 3), "nope-1", "nope-2", "nope-3"];
    const batch = await as(key, "GET", `/v1/cards/batch?ids=${ids26.join(",")}`);
    expect(batch.status).toBe(200);
    expect(int(batch, "x-credits-cost")).toBe(2);
    lastRemaining = int(batch, "x-quota-remaining");
    expect(await costOf(`/v1/cards/batch?ids=${ids26.join(",")}&include=index`)).toBe(3);
    expect(await costOf(`/v1/cards/batch?ids=${ids26.join(",")}&include=prices`)).toBe(8);
    const ids100 = Array.from({ length: 100 }, (_, i) => sample.cards[i % sample.cards.length]);
    expect(await costOf(`/v1/cards/batch?ids=${ids100.join(",")}`)).toBe(4);
  });

  it("set, series and artist lists: 1 per page whatever the limit", async () => {
    for (const list of ["sets", "series", "artists"]) {
      expect(await costOf(`/v1/${list}?limit=1`)).toBe(1);
      expect(await costOf(`/v1/${list}?limit=250`)).toBe(1);
    }
  });

  it("single records: a card 1 (2 with include=prices), a set, an artist, a sealed product 1", async () => {
    expect(await costOf(`/v1/cards/${sample.cards[0]}`)).toBe(1);
    expect(await costOf(`/v1/cards/${sample.cards[0]}?include=prices`)).toBe(2);
    expect(await costOf(`/v1/sets/${encodeURIComponent(sample.set)}`)).toBe(1);
    expect(await costOf(`/v1/artists/${encodeURIComponent(sample.artist)}`)).toBe(1);
    expect(await costOf(`/v1/sealed/${encodeURIComponent(sample.sealed)}`)).toBe(1);
  });
});

describe("distinct cards per period", () => {
  let acct: TestAccount;
  let next = "";
  const seen: string[] = [];
  const call = (path: string) => paced(() => as(acct.key, "GET", path));
  /** The next page of cards nobody on this account has seen yet. */
  async function newPage(limit: number): Promise<Answer> {
    const a = await call(next.replace(/limit=\d+/, `limit=${limit}`));
    if (a.status === 200) {
      seen.push(...a.body.data.map((c: { id: string }) => c.id));
      next = a.body.links.next;
    }
    return a;
  }
  const cardsUsed = (a: Answer) => int(a, "x-cards-used");
  const warnAt = Math.ceil(trial.cards * SPEC_FIGURES.nearLimit);

  beforeAll(async () => {
    acct = await makeAccount({ confirmed: true });
    next = "/v1/cards?limit=250&select=name";
  });

  it("served answers carry X-Cards-Used and X-Cards-Limit; no warning below 80% of the allowance", async () => {
    let used = 0;
    while (used < warnAt - 1) {
      const a = await newPage(Math.min(250, warnAt - 1 - used));
      expect(a.status).toBe(200);
      used += a.body.data.length;
      expect(cardsUsed(a)).toBe(used);
      expect(a.h("x-cards-limit")).toBe(String(trial.cards));
      expect(a.h("x-cards-warning")).toBeNull();
    }
    expect(used).toBe(warnAt - 1);
    // Known cards add nothing.
    const known = await call(`/v1/cards/${seen[0]}`);
    expect(known.status).toBe(200);
    expect(cardsUsed(known)).toBe(warnAt - 1);
    expect(known.h("x-cards-warning")).toBeNull();
  });

  it("X-Cards-Warning: approaching_limit once the count before the answer is at least 80%", async () => {
    const crossing = await newPage(1);
    expect(cardsUsed(crossing)).toBe(warnAt);
    // Counted before this answer: 799.
    expect(crossing.h("x-cards-warning")).toBeNull();
    const after = await call(`/v1/cards/${seen[0]}`);
    expect(after.h("x-cards-warning")).toBe("approaching_limit");
    expect(cardsUsed(after)).toBe(warnAt);
    // Never on failures or 304s.
    const missing = await call("/v1/cards/nope");
    expect(missing.status).toBe(404);
    expect(missing.h("x-cards-warning")).toBeNull();
    const etag = (await call(`/v1/cards/${seen[0]}`)).h("etag")!;
    const revalidated = await paced(() => as(acct.key, "GET", `/v1/cards/${seen[0]}`, { headers: { "if-none-match": etag } }));
    expect(revalidated.status).toBe(304);
    expect(revalidated.h("x-cards-warning")).toBeNull();
  });

  it("the page that crosses the allowance is served in full", async () => {
    const before = seen.length;
    expect(before).toBeLessThan(trial.cards);
    const a = await newPage(250);
    expect(a.status).toBe(200);
    expect(a.body.data).toHaveLength(250);
    expect(cardsUsed(a)).toBe(before + 250);
    expect(cardsUsed(a)).toBeGreaterThan(trial.cards);
    expect(a.h("x-cards-warning")).toBe("approaching_limit");
  });

  it("then new cards are 403 CARD_ALLOWANCE_EXCEEDED with full meter headers, cost 0, no Retry-After", async () => {
    const quotaBefore = int(await call(`/v1/cards/${seen[0]}`), "x-quota-remaining");
    const used = seen.length;
    const a = await call(next.replace(/limit=\d+/, "limit=20"));
    const d = expectRefusal(a, 403, "CARD_ALLOWANCE_EXCEEDED");
    expect(d).toMatchObject({ cards_used: used, card_allowance: trial.cards, new_cards: 20 });
    expect(d).not.toHaveProperty("resets_at"); // the trial's allowance never resets
    expect(typeof d.next_step?.action).toBe("string");
    expect(a.h("retry-after")).toBeNull();
    expectTrialMeterHeaders(a);
    // Refunded: the balance before the call.
    expect(int(a, "x-quota-remaining")).toBe(quotaBefore);

    // A batch that would add one new card among known ones is refused too.
    const unseen = (await getJson(next.replace(/limit=\d+/, "limit=1"))).body.data[0].id;
    expect(seen).not.toContain(unseen);
    const batch = await call(`/v1/cards/batch?ids=${seen[0]},${seen[1]},${unseen}`);
    expect(expectRefusal(batch, 403, "CARD_ALLOWANCE_EXCEEDED").new_cards).toBe(1);
  });

  it("already-retrieved cards keep answering, one by one, in lists and in batches", async () => {
    expect((await call(`/v1/cards/${seen[seen.length - 1]}`)).status).toBe(200);
    const firstPage = await call("/v1/cards?limit=250&select=name");
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.data.map((c: { id: string }) => c.id)).toEqual(seen.slice(0, 250));
    const batch = await call(`/v1/cards/batch?ids=${seen.slice(0, 50).join(",")}`);
    expect(batch.status).toBe(200);
    expect(cardsUsed(batch)).toBe(seen.length);
    // The refused answers charged nothing.
    const me = (await call("/v1/me")).body.data;
    expect(me.cards.used).toBe(seen.length);
  });

  it("the price routes count no cards: over the allowance, a card never fetched still has its prices", async () => {
    const unseen = (await getJson(next.replace(/limit=\d+/, "limit=2"))).body.data.map((c: { id: string }) => c.id) as string[];
    expect(seen.some((id) => unseen.includes(id))).toBe(false);
    const used = seen.length;
    for (const path of [
      `/v1/cards/${unseen[0]}/prices`, `/v1/cards/${unseen[0]}/prices/history`, `/v1/cards/${unseen[0]}/prices/stats`,
      `/v1/prices/current?ids=${unseen.join(",")}`,
    ]) {
      const a = await call(path);
      expect(a.status, path).toBe(200);
      expect(cardsUsed(a), path).toBe(used);
    }
    // The card route itself still counts, and refuses the new card.
    expectRefusal(await call(`/v1/cards/${unseen[0]}`), 403, "CARD_ALLOWANCE_EXCEEDED");
    expect((await call("/v1/me")).body.data.cards.used).toBe(used);
  });

  it("plans without an allowance: X-Cards-Used and X-Cards-Limit: unlimited, never a warning (only the warning is omitted)", async () => {
    const growth = await makeAccount({ plan: "growth", confirmed: true });
    const a = await as(growth.key, "GET", "/v1/cards?limit=250&select=name");
    expect(a.status).toBe(200);
    // The count after the answer, as on plans with an allowance.
    expect(a.h("x-cards-used")).toBe("250");
    expect(a.h("x-cards-limit")).toBe("unlimited");
    expect(a.h("x-cards-warning")).toBeNull();
    expect((await as(growth.key, "GET", "/v1/cards?limit=250&select=name")).h("x-cards-used")).toBe("250");
    expect((await as(growth.key, "GET", "/v1/sets/sv3pt5/cards?limit=10&select=name")).h("x-cards-used")).toBe("260");
    expect((await as(growth.key, "GET", "/v1/me")).body.data.cards.used).toBe(260);
  });
});
