import { sql } from "drizzle-orm";
import { getDb, rows, type Db } from "@/lib/db/client";

// Failed dashboard sign-ins, per submitted address (whether or not it has an account).

type Recent = { count: number; oldest: string | null };

/**
 * An attempt on the address, written down as a failure before its password is checked unless
 * the address already has `limit` failures in the window. Under the address's advisory lock, in
 * one transaction: guesses sent at once are counted one after another (read first and written
 * after the check, twenty simultaneous guesses all saw the same count and all were checked).
 * A success clears it with the address's other failures; forgetAttempt takes it back when the
 * password was not what failed.
 */
export async function reserveAttempt(email: string, limit: number, windowS: number): Promise<{ ok: true; id: number; before: number } | { ok: false; oldest: string | null }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.execute(sql`select pg_advisory_xact_lock(hashtext(${`signin:${email}`}))`);
    const [r] = await rows<Recent>(sql`
      select count(*)::int as count, min(at)::text as oldest from signin_failures
      where email = ${email} and at > now() - make_interval(secs => ${windowS})`, t);
    const recent = r ?? { count: 0, oldest: null };
    if (recent.count >= limit) return { ok: false as const, oldest: recent.oldest };
    const [row] = await rows<{ id: number }>(sql`insert into signin_failures (email) values (${email}) returning id`, t);
    return { ok: true as const, id: Number(row!.id), before: recent.count };
  });
}

/** An attempt that failed for another reason than its password (an unconfirmed address, a fault) is not held against the address. */
export async function forgetAttempt(id: number): Promise<void> {
  await rows(sql`delete from signin_failures where id = ${id}`);
}

/** A successful sign-in forgets the address's failures; rows older than a day go too. */
export async function clearFailures(email: string): Promise<void> {
  await rows(sql`delete from signin_failures where email = ${email} or at < now() - interval '1 day'`);
}
