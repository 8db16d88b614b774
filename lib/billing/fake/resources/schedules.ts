// Subscription schedules: from_subscription, phase updates, release, cancel.

import { invalid } from "../errors";
import { newestFirst, paginate, render, type Router } from "../http";
import { allowOnly, applyMetadata, int, metadataOf, obj, objs, str, type Params } from "../params";
import { cancelSchedule, releaseSchedule, scheduleFromSubscription, updateSchedule, type PhaseInput } from "../schedules";
import type { SubscriptionSchedule } from "../types";
import { prorationBehavior } from "./subscriptions";

const END_BEHAVIORS = ["release", "cancel", "none", "renew"];

function dateParam(p: Params, key: string, path: string): number | "now" | undefined {
  const v = str(p, key, path);
  if (v === undefined || v === "") return undefined;
  if (v === "now") return "now";
  if (!/^\d+$/.test(v)) throw invalid(`Invalid timestamp: ${v}`, path);
  return Number(v);
}

function phases(p: Params): PhaseInput[] {
  return objs(p, "phases").map((ph, i) => {
    const path = `phases[${i}]`;
    allowOnly(ph, [
      "items",
      "start_date",
      "end_date",
      "iterations",
      "duration",
      "proration_behavior",
      "metadata",
      "billing_cycle_anchor",
      "default_payment_method",
      "collection_method",
      "description",
      "currency",
    ]);
    const duration = obj(ph, "duration", `${path}[duration]`);
    return {
      items: objs(ph, "items").map((it, j) => {
        allowOnly(it, ["price", "quantity", "metadata", "tax_rates", "discounts"]);
        const price = str(it, "price", `${path}[items][${j}][price]`);
        if (!price) throw invalid(`Missing required param: ${path}[items][${j}][price].`, `${path}[items][${j}][price]`, "parameter_missing");
        return { price, quantity: int(it, "quantity", `${path}[items][${j}][quantity]`) ?? 1 };
      }),
      start: dateParam(ph, "start_date", `${path}[start_date]`),
      end: dateParam(ph, "end_date", `${path}[end_date]`),
      iterations: int(ph, "iterations", `${path}[iterations]`),
      duration: duration
        ? { interval: str(duration, "interval") ?? "month", count: int(duration, "interval_count") ?? 1 }
        : undefined,
      prorationBehavior: prorationBehavior(ph, "proration_behavior", `${path}[proration_behavior]`),
      metadata: metadataOf(ph),
    };
  });
}

function endBehavior(p: Params): SubscriptionSchedule["end_behavior"] | undefined {
  const v = str(p, "end_behavior");
  if (v === undefined) return undefined;
  if (!END_BEHAVIORS.includes(v)) throw invalid(`Invalid end_behavior: ${v}`, "end_behavior");
  return v as SubscriptionSchedule["end_behavior"];
}

export function scheduleRoutes(r: Router): void {
  r.on("POST", "/v1/subscription_schedules", (e, q) => {
    const p = q.params;
    allowOnly(p, ["from_subscription", "customer", "phases", "start_date", "end_behavior", "metadata"]);
    const from = str(p, "from_subscription");
    if (!from) {
      throw invalid("The fake creates schedules only from an existing subscription (from_subscription).", "from_subscription");
    }
    if (p.phases !== undefined) {
      throw invalid("You cannot set `phases` if `from_subscription` is set.", "phases");
    }
    const sched = scheduleFromSubscription(e, e.subscription(from, "from_subscription"), q.info);
    applyMetadata(sched.metadata, p);
    const eb = endBehavior(p);
    if (eb) sched.end_behavior = eb;
    e.changed();
    return render(sched, q, e.store);
  });

  r.on("GET", "/v1/subscription_schedules", (e, q) => {
    allowOnly(q.params, ["customer", "limit", "starting_after", "ending_before", "scheduled", "released", "canceled", "completed"]);
    const customer = str(q.params, "customer");
    const items = newestFirst(e.d.schedules).filter((s) => !customer || s.customer === customer);
    return render(paginate(items, q.params, "/v1/subscription_schedules"), q, e.store);
  });

  r.on("GET", "/v1/subscription_schedules/:id", (e, q) => {
    allowOnly(q.params, []);
    return render(e.schedule(q.args.id as string), q, e.store);
  });

  r.on("POST", "/v1/subscription_schedules/:id", (e, q) => {
    const p = q.params;
    allowOnly(p, ["phases", "end_behavior", "proration_behavior", "metadata", "default_settings"]);
    const sched = updateSchedule(
      e,
      e.schedule(q.args.id as string),
      {
        phases: p.phases !== undefined ? phases(p) : undefined,
        endBehavior: endBehavior(p),
        prorationBehavior: prorationBehavior(p),
        metadata: (m) => applyMetadata(m, p),
      },
      q.info,
    );
    return render(sched, q, e.store);
  });

  r.on("POST", "/v1/subscription_schedules/:id/release", (e, q) => {
    allowOnly(q.params, ["preserve_cancel_date"]);
    return render(releaseSchedule(e, e.schedule(q.args.id as string), q.info), q, e.store);
  });

  r.on("POST", "/v1/subscription_schedules/:id/cancel", (e, q) => {
    allowOnly(q.params, ["invoice_now", "prorate"]);
    return render(cancelSchedule(e, e.schedule(q.args.id as string), q.info), q, e.store);
  });
}
