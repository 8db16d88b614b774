-- A request id finds its row through a hash index on the id alone (the account is checked on the
-- row): ids are random, and the btree on (account, id) took a random leaf page an insert
-- (lib/db/schema/usage.ts).
DROP INDEX "request_log_request_idx";--> statement-breakpoint
CREATE INDEX "request_log_request_idx" ON "request_log" USING hash ("request_id");