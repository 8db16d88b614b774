import { describe, expect, it } from "vitest";
import { REFERENCE } from "@/lib/catalog/reference";
import { PRODUCT_TYPES } from "@/lib/catalog/lists";
import {
  conditionLabel, eur, gradeLabel, isThinIndex, isThinQuote, languageLabel, money, percent, printingLabel, productTypeLabel,
  sourceLabel, THIN_INDEX_SOURCES, THIN_MARKET_RULE, THIN_QUOTE_OBSERVATIONS, tidy, trend, variantLabel,
} from "@/lib/prices/labels";
import { SOURCE_CODES } from "@/lib/prices/sources";

const RAW_CODE = /^[A-Z0-9]+(_[A-Z0-9]+)+$|^[a-z]+(-[a-z]+)+$/;

describe("labels", () => {
  it("names every code of the reference vocabularies in words, never the code itself", () => {
    for (const v of REFERENCE.price_variants) expect(variantLabel(v)).not.toMatch(RAW_CODE);
    for (const p of REFERENCE.printings) expect(printingLabel(p)).not.toMatch(RAW_CODE);
    for (const c of REFERENCE.conditions) expect(conditionLabel(c)).not.toMatch(RAW_CODE);
    for (const l of REFERENCE.locales) expect(languageLabel(l)).not.toBe(l);
    for (const t of PRODUCT_TYPES) expect(productTypeLabel(t)).not.toMatch(RAW_CODE);
    for (const s of SOURCE_CODES) expect(sourceLabel(s)).not.toBe(s === "SNKRDUNK" ? "" : s);
  });

  it("reads the codes collectors meet most", () => {
    expect(variantLabel("AVG_1D")).toBe("1-day average");
    expect(variantLabel("MEDIAN_GRADED")).toBe("Graded median");
    expect(printingLabel("FIRST_EDITION_HOLOFOIL")).toBe("1st edition holofoil");
    expect(printingLabel(null)).toBe("Any printing");
    expect(conditionLabel("LIGHT_PLAYED")).toBe("Lightly played");
    expect(languageLabel("es-mx")).toBe("Spanish (Latin America)");
    expect(languageLabel(null)).toBe("Language not stated");
    expect(sourceLabel("EBAY")).toBe("eBay sold listings");
    expect(productTypeLabel("elite-trainer-box")).toBe("Elite Trainer Box");
  });

  it("tidies a code no map knows instead of printing it raw", () => {
    expect(tidy("SOME_NEW_VARIANT")).toBe("Some new variant");
    expect(variantLabel("AVG_90D")).toBe("Avg 90d");
    expect(printingLabel("STAMPED_PROMO")).toBe("Stamped promo");
  });

  it("grades: company and score, or the score alone", () => {
    expect(gradeLabel({ company: "PSA", score: "10" })).toBe("PSA 10");
    expect(gradeLabel({ score: "9.5" })).toBe("Grade 9.5");
    expect(gradeLabel(null)).toBe("Ungraded");
  });

  it("money in each currency, and signed percentages", () => {
    expect(money(12.5, "EUR")).toBe("€12.50");
    expect(money(9.99, "USD")).toBe("$9.99");
    expect(money(1200, "JPY")).toBe("¥1,200");
    expect(eur(null)).toBe("–");
    expect(percent(4.21)).toBe("+4.2 %");
    expect(percent(-3)).toBe("−3.0 %");
    expect(percent(0)).toBe("0.0 %");
  });

  it("a missing change is shown in neither rise's nor fall's colour (it read green while prices were prepared)", () => {
    expect(trend(4.2)).toBe(" up");
    expect(trend(0)).toBe(" up");
    expect(trend(-0.1)).toBe(" down");
    expect(trend(null)).toBe("");
    expect(trend(undefined)).toBe("");
  });
});

describe("thin market", () => {
  it("flags an index backed by fewer than two sources", () => {
    expect(THIN_INDEX_SOURCES).toBe(2);
    expect(isThinIndex(1)).toBe(true);
    expect(isThinIndex(2)).toBe(false);
    expect(isThinIndex(5)).toBe(false);
    expect(isThinIndex(null)).toBe(false);
  });

  it("flags a quote resting on fewer than five observations; an unknown count is not thin", () => {
    expect(THIN_QUOTE_OBSERVATIONS).toBe(5);
    expect(isThinQuote(1)).toBe(true);
    expect(isThinQuote(4)).toBe(true);
    expect(isThinQuote(5)).toBe(false);
    expect(isThinQuote(null)).toBe(false);
    expect(isThinQuote(undefined)).toBe(false);
  });

  it("states its rule with the thresholds", () => {
    expect(THIN_MARKET_RULE).toContain("fewer than 2 sources");
    expect(THIN_MARKET_RULE).toContain("fewer than 5 observed");
  });
});
