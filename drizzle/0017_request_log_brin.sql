-- The request log's rows arrive in time order and only the retention's purge reads them by time
-- alone: a BRIN index serves it for a few pages and almost no work per insert (lib/db/schema/usage.ts).
DROP INDEX "request_log_at_idx";--> statement-breakpoint
CREATE INDEX "request_log_at_brin" ON "request_log" USING brin ("at");