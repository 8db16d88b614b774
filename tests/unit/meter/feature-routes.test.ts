import { describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { FEATURE_ROUTES } from "@/lib/meter/plans";

// A rebuild counts a trial feature's calls from the ledger, which records routes: the
// operations each feature counts must be exactly those whose cost rule charges that feature.
describe("the routes of each counted trial feature", () => {
  it("are the operations whose cost rule counts that feature", () => {
    const fromRules: Record<string, string[]> = {};
    for (const spec of routeSpecs()) {
      const trial = spec.cost.trial;
      if (trial && typeof trial === "object") (fromRules[trial.calls] ??= []).push(spec.operationId);
    }
    const sorted = (m: Record<string, string[]>) => Object.fromEntries(Object.entries(m).map(([f, r]) => [f, [...r].sort()]).sort());
    expect(sorted(FEATURE_ROUTES)).toEqual(sorted(fromRules));
  });
});
