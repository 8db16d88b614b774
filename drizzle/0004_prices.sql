CREATE TABLE "fx_rates" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"per_eur" double precision NOT NULL,
	CONSTRAINT "fx_rates_currency_day_pk" PRIMARY KEY("currency","day")
);
--> statement-breakpoint
CREATE TABLE "price_feeds" (
	"sha256" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"name" text NOT NULL,
	"rows" integer NOT NULL,
	"rejected" integer NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_months" (
	"series_id" integer NOT NULL,
	"month" integer NOT NULL,
	"amounts" "bytea" NOT NULL,
	CONSTRAINT "price_months_series_id_month_pk" PRIMARY KEY("series_id","month")
);
--> statement-breakpoint
CREATE TABLE "price_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"product_kind" text NOT NULL,
	"product_id" text NOT NULL,
	"source" text NOT NULL,
	"variant" text NOT NULL,
	"basis" text NOT NULL,
	"currency" text NOT NULL,
	"locale" text,
	"condition" text,
	"printing" text,
	"grading_company" text,
	"grading_score" text,
	"provenance" text NOT NULL,
	"recent" jsonb NOT NULL,
	"first_as_of" date NOT NULL,
	"last_as_of" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "price_series_key_idx" ON "price_series" USING btree ("key");--> statement-breakpoint
CREATE INDEX "price_series_product_idx" ON "price_series" USING btree ("product_kind","product_id");