import { describe, expect, it, vi } from "vitest";
import type { Account } from "@/lib/accounts/types";

// Stripe lists at most 100 invoices a call: a page of up to 250 is read in several calls.
const invoices = Array.from({ length: 260 }, (_, i) => ({ id: `in_${String(i).padStart(4, "0")}` }));
const calls: { limit: number; after?: string }[] = [];
vi.mock("@/lib/billing/manage", () => ({
  listInvoices: async (_a: Account, limit: number, after?: string) => {
    calls.push({ limit, after });
    const from = after ? invoices.findIndex((i) => i.id === after) + 1 : 0;
    const rows = invoices.slice(from, from + Math.min(limit, 100));
    return { rows, hasMore: from + rows.length < invoices.length };
  },
}));
const { invoicePage, invoiceCursor } = await import("@/lib/billing/invoices");

const link = (p: Record<string, unknown>) => `/v1/billing/invoices?limit=${p.limit}&cursor=${p.cursor}`;
const account = {} as Account;

describe("the invoices page", () => {
  it("reads 250 in three calls of Stripe, then the last 10 from the cursor", async () => {
    calls.length = 0;
    const first = await invoicePage(account, 250, undefined, link);
    expect(calls).toEqual([{ limit: 100, after: undefined }, { limit: 100, after: "in_0099" }, { limit: 50, after: "in_0199" }]);
    expect(first.meta).toEqual({ limit: 250, count: 250, has_more: true });
    expect(first.data.map((r) => r.id)).toEqual(invoices.slice(0, 250).map((i) => i.id));
    const cursor = new URL(first.links.next!, "http://x").searchParams.get("cursor")!;
    const rest = await invoicePage(account, 250, invoiceCursor.decode(cursor), link);
    expect(rest.meta).toEqual({ limit: 250, count: 10, has_more: false });
    expect(rest.links.next).toBeUndefined();
  });

  it("a page that ends the list exactly says there is no more", async () => {
    calls.length = 0;
    const page = await invoicePage(account, 60, "in_0199", link);
    expect(page.meta).toEqual({ limit: 60, count: 60, has_more: false });
    expect(calls).toEqual([{ limit: 60, after: "in_0199" }]);
  });
});
