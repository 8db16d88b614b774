CREATE TABLE "request_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"key_id" text,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"status" smallint NOT NULL,
	"error_code" text,
	"credits" integer NOT NULL,
	"cards_added" integer NOT NULL,
	"refunded" boolean NOT NULL,
	"latency" integer NOT NULL,
	"request_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_alerts" (
	"account_id" text NOT NULL,
	"period" text NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_alerts_account_id_period_kind_pk" PRIMARY KEY("account_id","period","kind")
);
--> statement-breakpoint
CREATE TABLE "usage_hourly" (
	"account_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"route" text NOT NULL,
	"key_id" text NOT NULL,
	"status" smallint NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"cards_added" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hourly_account_id_hour_route_key_id_status_pk" PRIMARY KEY("account_id","hour","route","key_id","status")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "request_log_account_idx" ON "request_log" USING btree ("account_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_request_idx" ON "request_log" USING btree ("account_id","request_id");--> statement-breakpoint
CREATE INDEX "request_log_at_idx" ON "request_log" USING btree ("at");