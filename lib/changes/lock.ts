import { sql } from "drizzle-orm";

// Writers of the change feed take this lock inside their transaction before they insert, so
// sequence numbers are committed in order: a reader that has seen seq n never later finds a
// row below n appear (no gaps filled behind a mirror's cursor).
const CHANGE_FEED_LOCK = 72_406;

export const lockChangeFeed = sql`select pg_advisory_xact_lock(${CHANGE_FEED_LOCK})`;

// Session locks of jobs that must not run twice at once (lib/db/client.ts withAdvisoryLock).
// Keys share one space with the change feed's above and the migrations' (lib/db/migrate.ts).

/** refresh-prices: two runs at once would apply the same feed file twice. */
export const PRICE_REFRESH_LOCK = 72_407;
