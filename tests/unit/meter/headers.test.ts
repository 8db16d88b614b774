import { describe, expect, it } from "vitest";
import { meterHeaders, type Lease } from "@/lib/meter/meter";
import { allowance } from "@/lib/meter/policy";
import { Outcome, type AcquireResult } from "@/lib/meter/types";
import { confirmedTrial, DAY, T0 } from "./accounts";

// The meter's headers from one acquire's result (SPEC.md Meter headers).

function lease(tokens: number): Lease {
  const account = confirmedTrial();
  const result = { outcome: Outcome.OK, tokens, fullInMs: 600, creditsUsed: 10, dailyUsed: 10, cardsUsed: 0 } as unknown as AcquireResult;
  return {
    account, allowance: allowance(account, T0 + DAY), leaseId: "l", route: "listSets", cost: 1, feature: "", featureCounted: false,
    day: "", generation: "g", result, degraded: false, upgradeTo: "developer",
  };
}

describe("RateLimit-Remaining", () => {
  it("is what the bucket holds on a served answer", () => {
    expect(meterHeaders(lease(7), { charged: 1, served: true })["ratelimit-remaining"]).toBe("7");
  });

  it("is 0 on a RATE_LIMITED refusal, also one of the per-minute limit whose per-second bucket still holds tokens", () => {
    expect(meterHeaders(lease(7), { charged: 0, refused: Outcome.RATE_LIMITED })["ratelimit-remaining"]).toBe("0");
  });
});
