import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";

// Failed dashboard sign-ins, per submitted address (whether or not it has an account).

export async function recentFailures(email: string, windowS: number): Promise<{ count: number; oldest: string | null }> {
  const [r] = await rows<{ count: number; oldest: string | null }>(sql`
    select count(*)::int as count, min(at)::text as oldest from signin_failures
    where email = ${email} and at > now() - make_interval(secs => ${windowS})`);
  return r ?? { count: 0, oldest: null };
}

export async function addFailure(email: string): Promise<void> {
  await rows(sql`insert into signin_failures (email) values (${email})`);
}

/** A successful sign-in forgets the address's failures; rows older than a day go too. */
export async function clearFailures(email: string): Promise<void> {
  await rows(sql`delete from signin_failures where email = ${email} or at < now() - interval '1 day'`);
}
