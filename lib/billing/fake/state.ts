// In-memory state of the fake, written to `stateFile` (debounced, atomically) when one is given.
// Objects are kept in Stripe's JSON shape; records keep insertion order (ids never look numeric).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { seedCatalog } from "./seed";
import type {
  CheckoutLine,
  CheckoutSession,
  Customer,
  DeliveryAttempt,
  Invoice,
  InvoiceLine,
  Metadata,
  PaymentMethod,
  PortalSession,
  Price,
  Product,
  StripeEvent,
  StripeObject,
  Subscription,
  SubscriptionSchedule,
} from "./types";

export interface StateData {
  version: 1;
  clockOffset: number;
  products: Record<string, Product>;
  prices: Record<string, Price>;
  customers: Record<string, Customer>;
  paymentMethods: Record<string, PaymentMethod>;
  sessions: Record<string, CheckoutSession>;
  subscriptions: Record<string, Subscription>;
  schedules: Record<string, SubscriptionSchedule>;
  invoices: Record<string, Invoice>;
  portalSessions: Record<string, PortalSession>;
  events: Record<string, StripeEvent>;
  /** Line items of checkout sessions (Stripe shows them only through `line_items`). */
  sessionLines: Record<string, CheckoutLine[]>;
  /** `subscription_data[metadata]` of checkout sessions, given to the subscription they create. */
  sessionSubscriptionMetadata: Record<string, Metadata>;
  /** Prorations waiting for the subscription's next invoice (proration_behavior=create_prorations). */
  pendingLines: Record<string, InvoiceLine[]>;
  /** Customers whose payments fail (control: POST /_control/customers/:id/fail). */
  failing: Record<string, true>;
  deliveries: Record<string, DeliveryAttempt[]>;
  invoiceCounter: number;
}

type Collections = Pick<
  StateData,
  | "products"
  | "prices"
  | "customers"
  | "paymentMethods"
  | "sessions"
  | "subscriptions"
  | "schedules"
  | "invoices"
  | "portalSessions"
  | "events"
>;

/** Id prefix → collection, longest prefix first (sub_sched_ before sub_). */
const PREFIXES: [string, keyof Collections][] = [
  ["sub_sched_", "schedules"],
  ["sub_", "subscriptions"],
  ["cus_", "customers"],
  ["price_", "prices"],
  ["prod_", "products"],
  ["cs_", "sessions"],
  ["in_", "invoices"],
  ["pm_", "paymentMethods"],
  ["bps_", "portalSessions"],
  ["evt_", "events"],
];

function empty(catalog?: Pick<StateData, "products" | "prices">): StateData {
  const seeded = catalog ?? seedCatalog(Math.floor(Date.now() / 1000));
  return {
    version: 1,
    clockOffset: 0,
    products: seeded.products,
    prices: seeded.prices,
    customers: {},
    paymentMethods: {},
    sessions: {},
    subscriptions: {},
    schedules: {},
    invoices: {},
    portalSessions: {},
    events: {},
    sessionLines: {},
    sessionSubscriptionMetadata: {},
    pendingLines: {},
    failing: {},
    deliveries: {},
    invoiceCounter: 0,
  };
}

export class Store {
  d: StateData;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly file?: string) {
    this.d = this.load() ?? empty();
  }

  private load(): StateData | null {
    if (!this.file) return null;
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8")) as StateData;
      if (parsed.version !== 1) return null;
      return { ...empty({ products: parsed.products, prices: parsed.prices }), ...parsed };
    } catch {
      return null; // no file yet, or unreadable: start afresh (the next save replaces it)
    }
  }

  /** Everything but the catalogue (products and prices keep their ids, so cached ids stay valid). */
  reset(): void {
    this.d = empty({ products: this.d.products, prices: this.d.prices });
    this.changed();
  }

  /** The object with this id, whatever its kind (for `expand[]`). */
  find(id: string): StripeObject | undefined {
    for (const [prefix, key] of PREFIXES) {
      if (id.startsWith(prefix)) return (this.d[key] as Record<string, StripeObject>)[id];
    }
    return undefined;
  }

  changed(): void {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, 200);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.d));
    renameSync(tmp, this.file);
  }
}
