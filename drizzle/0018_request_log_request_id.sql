-- The request-id lookup on the id alone (lib/db/schema/usage.ts): the API's ids begin with their
-- time, so inserts fill the index's rightmost page. Building it blocks the log's writes for a
-- while on a large table; the servers keep the rows in memory and write them after.
DROP INDEX "request_log_request_idx";--> statement-breakpoint
CREATE INDEX "request_log_request_idx" ON "request_log" USING btree ("request_id");