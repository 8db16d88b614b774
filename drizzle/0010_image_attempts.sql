ALTER TABLE "images" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "retry_at" timestamp with time zone;