CREATE TABLE "collection_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"card_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"condition" text NOT NULL,
	"printing" text NOT NULL,
	"language" text NOT NULL,
	"price_paid" numeric(12, 2),
	"currency" text DEFAULT 'EUR' NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_items_quantity_check" CHECK ("collection_items"."quantity" between 1 and 100000)
);
--> statement-breakpoint
CREATE TABLE "watchlist" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"card_id" text NOT NULL,
	"direction" text NOT NULL,
	"threshold" numeric(12, 2) NOT NULL,
	"armed" boolean DEFAULT true NOT NULL,
	"last_price" numeric(12, 2),
	"last_alerted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist" ADD CONSTRAINT "watchlist_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_items_account_idx" ON "collection_items" USING btree ("account_id","added_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "watchlist_account_card_direction_idx" ON "watchlist" USING btree ("account_id","card_id","direction");--> statement-breakpoint
CREATE INDEX "watchlist_card_idx" ON "watchlist" USING btree ("card_id");