CREATE TABLE "signin_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "secret_enc" text;--> statement-breakpoint
CREATE INDEX "signin_failures_email_idx" ON "signin_failures" USING btree ("email","at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
-- Answers stored before this migration hold API keys in plain text: they go (replays of the last 24 h with them).
DELETE FROM "idempotency_keys";
