import { sql, type SQL } from "drizzle-orm";

/** A timestamptz as RFC 3339 in UTC with milliseconds, formatted by PostgreSQL itself. */
export function iso(column: SQL): SQL {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
