import { describe, expect, it } from "vitest";
import { readFilters } from "@/app/(account)/dashboard/requests/filters";

describe("the request log page's filters", () => {
  it("since takes its four windows only: a built-in property name (toString) is no window (the page answered 500)", () => {
    expect(readFilters({ since: "24h" }).since).toBe("24h");
    for (const since of ["toString", "constructor", "__proto__", "hasOwnProperty", "2h"]) expect(readFilters({ since }).since, since).toBeUndefined();
  });
});
