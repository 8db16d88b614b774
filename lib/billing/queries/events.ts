import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";

// The webhook's events table: each Stripe event is applied once. A delivery takes the event's
// lease; a lease older than LEASE (an instance that died mid-event) may be taken again.

export const LEASE_SECONDS = 300;

export type Take = "take" | "done" | "busy";

/** Claims the event for this delivery: `take` to apply it, `done` when applied before, `busy` while another delivery holds it. */
export async function takeEvent(id: string, type: string): Promise<Take> {
  const [row] = await rows<{ state: string; taken: boolean }>(sql`
    insert into billing_events (id, type, state, lease_until, attempts)
    values (${id}, ${type}, 'processing', now() + make_interval(secs => ${LEASE_SECONDS}), 1)
    on conflict (id) do update set lease_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = billing_events.attempts + 1
      where billing_events.state = 'processing' and billing_events.lease_until < now()
    returning state, true as taken`);
  if (row) return "take";
  const [existing] = await rows<{ state: string }>(sql`select state from billing_events where id = ${id}`);
  return existing?.state === "done" ? "done" : "busy";
}

export async function finishEvent(id: string, accountId: string | null): Promise<void> {
  await rows(sql`update billing_events set state = 'done', done_at = now(), lease_until = null, account_id = ${accountId}, last_error = null where id = ${id}`);
}

/** A failed application gives the lease back at once, so Stripe's retry can take it. */
export async function releaseEvent(id: string, error: string): Promise<void> {
  await rows(sql`update billing_events set lease_until = now() - interval '1 second', last_error = ${error.slice(0, 500)} where id = ${id} and state = 'processing'`);
}
