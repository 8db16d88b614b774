// Billing portal sessions and events.

import { invalid, missing } from "../errors";
import { newestFirst, paginate, render, type Router } from "../http";
import { allowOnly, str, strs } from "../params";
import { makePortalSession } from "../shapes";

export function portalRoutes(r: Router): void {
  r.on("POST", "/v1/billing_portal/sessions", (e, q) => {
    const p = q.params;
    allowOnly(p, ["customer", "return_url", "configuration", "flow_data", "locale", "on_behalf_of"]);
    const customer = str(p, "customer");
    if (!customer) throw invalid("Missing required param: customer.", "customer", "parameter_missing");
    e.customer(customer, "customer");
    if (p.flow_data !== undefined) throw invalid("The fake's portal has no flows (flow_data).", "flow_data");
    const s = makePortalSession({ created: e.now(), customer, returnUrl: str(p, "return_url") || null, baseUrl: e.opts.baseUrl() });
    e.d.portalSessions[s.id] = s;
    e.changed();
    return render(s, q, e.store);
  });
}

export function eventRoutes(r: Router): void {
  r.on("GET", "/v1/events", (e, q) => {
    const p = q.params;
    allowOnly(p, ["type", "types", "limit", "starting_after", "ending_before", "created", "delivery_success"]);
    const type = str(p, "type");
    const types = strs(p, "types");
    const match = (t: string) => {
      if (type) return type.endsWith(".*") ? t.startsWith(type.slice(0, -1)) : t === type;
      return types.length === 0 || types.includes(t);
    };
    const items = newestFirst(e.d.events).filter((ev) => match(ev.type));
    return render(paginate(items, p, "/v1/events"), q, e.store);
  });

  r.on("GET", "/v1/events/:id", (e, q) => {
    allowOnly(q.params, []);
    const ev = e.d.events[q.args.id as string];
    if (!ev) throw missing("evt", q.args.id as string);
    return render(ev, q, e.store);
  });
}
