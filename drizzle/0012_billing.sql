CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"state" text NOT NULL,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"account_id" text,
	"last_error" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "past_due_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "open_invoice_url" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "scheduled_plan" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "scheduled_interval" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_stripe_customer_idx" ON "accounts" USING btree ("stripe_customer_id");