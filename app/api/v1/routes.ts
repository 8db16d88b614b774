import type { RouteSpec } from "@/lib/api/route";
import * as artist from "./artists/[slug]/route";
import * as artists from "./artists/route";
import * as card from "./cards/[id]/route";
import * as batch from "./cards/batch/route";
import * as cards from "./cards/route";
import * as health from "./health/route";
import * as openapi from "./openapi.json/route";
import * as reference from "./reference/route";
import * as sealedOne from "./sealed/[id]/route";
import * as sealed from "./sealed/route";
import * as series from "./series/route";
import * as set from "./sets/[code]/route";
import * as setCards from "./sets/[code]/cards/route";
import * as sets from "./sets/route";
import * as status from "./status/route";
import * as accountsFree from "./accounts/free/route";
import * as accountsRegister from "./accounts/register/route";
import * as accountsConfirm from "./accounts/confirm/route";
import * as accountsConfirmation from "./accounts/confirmation/route";
import * as me from "./me/route";
import * as meUsage from "./me/usage/route";
import * as meRequests from "./me/requests/route";
import * as keys from "./keys/route";
import * as key from "./keys/[id]/route";
import * as keyRotate from "./keys/[id]/rotate/route";
import * as adminAccount from "./admin/accounts/[account_id]/route";
import * as adminConfirm from "./admin/accounts/[account_id]/confirm-email/route";
import * as adminPlan from "./admin/accounts/[account_id]/plan/route";
import * as adminTrial from "./admin/accounts/[account_id]/trial/route";
import * as adminCredits from "./admin/accounts/[account_id]/credits/route";
import * as adminFlags from "./admin/accounts/[account_id]/flags/route";
import * as adminAuditLog from "./admin/accounts/[account_id]/audit/route";
import * as priceSources from "./prices/sources/route";
import * as pricesCurrent from "./prices/current/route";
import * as cardPrices from "./cards/[id]/prices/route";
import * as cardHistory from "./cards/[id]/prices/history/route";
import * as cardStats from "./cards/[id]/prices/stats/route";
import * as sealedPrices from "./sealed/[id]/prices/route";
import * as changes from "./changes/route";
import * as movers from "./prices/movers/route";
import * as bulk from "./bulk/route";
import * as bulkFile from "./bulk/[type]/route";
import * as centeringGrade from "./centering/grade/route";
import * as centeringStandards from "./centering/standards/route";
import * as centeringMeasure from "./centering/measure/route";
import * as centeringConfirm from "./centering/confirm/route";
import * as identify from "./vision/identify/route";
import * as billing from "./billing/route";
import * as billingCheckout from "./billing/checkout/route";
import * as billingWebhook from "./billing/webhook/route";
import * as billingInvoices from "./billing/invoices/route";
import * as billingPortal from "./billing/portal/route";
import * as billingSubscription from "./billing/subscription/route";
import * as billingCancel from "./billing/cancel/route";

// Every mounted /v1 route module. The OpenAPI document reads its specs from here; a test
// checks that every route.ts under app/api/v1 is listed, so none can be left undocumented.
export const ROUTE_MODULES: Record<string, unknown>[] = [
  artist, artists, card, batch, cards, health, openapi, reference, sealedOne, sealed, series, set, setCards, sets, status,
  accountsFree, accountsRegister, accountsConfirm, accountsConfirmation, me, meUsage, meRequests, keys, key, keyRotate,
  adminAccount, adminConfirm, adminPlan, adminTrial, adminCredits, adminFlags, adminAuditLog,
  priceSources, pricesCurrent, cardPrices, cardHistory, cardStats, sealedPrices, changes, movers, bulk, bulkFile,
  centeringGrade, centeringStandards, centeringMeasure, centeringConfirm, identify,
  billing, billingCheckout, billingWebhook, billingInvoices, billingPortal, billingSubscription, billingCancel,
];

export function routeSpecs(): RouteSpec[] {
  const out: RouteSpec[] = [];
  for (const mod of ROUTE_MODULES) {
    for (const h of Object.values(mod)) {
      const spec = (h as { spec?: RouteSpec } | undefined)?.spec;
      if (spec) out.push(spec);
    }
  }
  return out;
}
