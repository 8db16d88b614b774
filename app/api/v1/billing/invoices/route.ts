import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { invoiceCursor, invoicePage } from "@/lib/billing/invoices";
import { InvoicesQuery, InvoicesResponse } from "@/lib/billing/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/billing/invoices",
    operationId: "listInvoices",
    summary: "The account's invoices",
    description: "Newest first, with amounts (in cents), status and Stripe's hosted page and PDF. Cursor-paged like every list: `limit` 1 to 250, default 50.",
    tags: ["Billing"],
    auth: "key",
    query: InvoicesQuery,
    response: InvoicesResponse,
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED", "BILLING_UNAVAILABLE"],
    cost: COSTS.billing,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, query, link }) => ({
      body: await invoicePage(accountOf(principal), query.limit, query.cursor ? invoiceCursor.decode(query.cursor) : undefined, link),
    }),
  }),
});
