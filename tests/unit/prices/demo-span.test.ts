import { describe, expect, it } from "vitest";
import { demoSpan } from "@/app/(browse)/cards/demo";

// The pages say how much demo history the first start makes: DEMO_PRICES_DAYS, not always a year.
describe("demoSpan", () => {
  it("says a year for the default 365 days and the number of days otherwise", () => {
    expect(demoSpan(365)).toBe("a year");
    expect(demoSpan(30)).toBe("30 days");
    expect(demoSpan(90)).toBe("90 days");
  });
});
