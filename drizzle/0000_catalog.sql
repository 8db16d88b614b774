CREATE TABLE "artists" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_folded" text NOT NULL,
	"card_count" integer DEFAULT 0 NOT NULL,
	"set_count" integer DEFAULT 0 NOT NULL,
	"first_release_date" date,
	"last_release_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"content_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_aliases" (
	"alias" text PRIMARY KEY NOT NULL,
	"card_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" text PRIMARY KEY NOT NULL,
	"id_lower" text NOT NULL,
	"alt_id" text,
	"set_id" text NOT NULL,
	"series_id" text NOT NULL,
	"print_region" text,
	"number" text NOT NULL,
	"number_sort" integer,
	"local_id" text,
	"printed_total" integer,
	"name" text NOT NULL,
	"names" jsonb NOT NULL,
	"name_terms" text[] NOT NULL,
	"name_keys" text[] NOT NULL,
	"supertype" text,
	"supertype_lc" text,
	"subtypes" text[] NOT NULL,
	"types" text[] NOT NULL,
	"types_lc" text[] NOT NULL,
	"subtypes_lc" text[] NOT NULL,
	"hp" integer,
	"rarity" text,
	"rarity_lc" text,
	"artist" text,
	"artist_slug" text,
	"national_pokedex_numbers" double precision[] NOT NULL,
	"regulation_mark" text,
	"release_date" date,
	"languages" text[] NOT NULL,
	"attrs" jsonb NOT NULL,
	"images" jsonb,
	"index_eur" double precision,
	"last_price_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"content_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"entity_id" text NOT NULL,
	"op" text NOT NULL,
	"fields" text[],
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"face" text NOT NULL,
	"size" text NOT NULL,
	"source_url" text,
	"storage_key" text,
	"origin" text DEFAULT 'upstream' NOT NULL,
	"width" integer,
	"height" integer,
	"sha256" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"job" text PRIMARY KEY NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"contract_ok" integer DEFAULT 1 NOT NULL,
	"last_error" text,
	"stats" jsonb
);
--> statement-breakpoint
CREATE TABLE "sealed_products" (
	"slug" text PRIMARY KEY NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"name_folded" text NOT NULL,
	"names" jsonb NOT NULL,
	"product_type" text NOT NULL,
	"set_id" text,
	"series_id" text,
	"release_date" date,
	"tcgplayer_product_id" integer,
	"attrs" jsonb NOT NULL,
	"index_eur" double precision,
	"last_price_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"content_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"names" jsonb NOT NULL,
	"name_folded" text NOT NULL,
	"region" text NOT NULL,
	"set_count" integer DEFAULT 0 NOT NULL,
	"card_count" integer DEFAULT 0 NOT NULL,
	"first_release_date" date,
	"last_release_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"content_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sets" (
	"id" text PRIMARY KEY NOT NULL,
	"id_lower" text NOT NULL,
	"alt_id" text,
	"ptcgo_code" text,
	"name" text NOT NULL,
	"name_folded" text NOT NULL,
	"names" jsonb NOT NULL,
	"series_id" text NOT NULL,
	"print_region" text,
	"printed_total" integer,
	"total" integer,
	"card_count" integer DEFAULT 0 NOT NULL,
	"release_date" date,
	"languages" text[] NOT NULL,
	"legalities" jsonb,
	"images" jsonb,
	"attrs" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"content_hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "artists_card_count_idx" ON "artists" USING btree ("card_count","slug");--> statement-breakpoint
CREATE INDEX "artists_name_idx" ON "artists" USING btree ("name","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_id_lower_idx" ON "cards" USING btree ("id_lower");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_alt_id_idx" ON "cards" USING btree (lower("alt_id"));--> statement-breakpoint
CREATE INDEX "cards_set_number_idx" ON "cards" USING btree ("set_id","number_sort","number","id");--> statement-breakpoint
CREATE INDEX "cards_name_idx" ON "cards" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "cards_number_idx" ON "cards" USING btree ("number_sort","number","id");--> statement-breakpoint
CREATE INDEX "cards_rarity_idx" ON "cards" USING btree ("rarity","id");--> statement-breakpoint
CREATE INDEX "cards_rarity_lc_idx" ON "cards" USING btree ("rarity_lc");--> statement-breakpoint
CREATE INDEX "cards_hp_idx" ON "cards" USING btree ("hp","id");--> statement-breakpoint
CREATE INDEX "cards_release_date_idx" ON "cards" USING btree ("release_date","id");--> statement-breakpoint
CREATE INDEX "cards_updated_at_idx" ON "cards" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "cards_created_at_idx" ON "cards" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "cards_artist_idx" ON "cards" USING btree ("artist","id");--> statement-breakpoint
CREATE INDEX "cards_artist_slug_idx" ON "cards" USING btree ("artist_slug");--> statement-breakpoint
CREATE INDEX "cards_index_eur_idx" ON "cards" USING btree ("index_eur","id");--> statement-breakpoint
CREATE INDEX "cards_last_price_at_idx" ON "cards" USING btree ("last_price_at","id");--> statement-breakpoint
CREATE INDEX "cards_region_idx" ON "cards" USING btree ("print_region","id");--> statement-breakpoint
CREATE INDEX "cards_supertype_lc_idx" ON "cards" USING btree ("supertype_lc");--> statement-breakpoint
CREATE INDEX "cards_regulation_mark_idx" ON "cards" USING btree ("regulation_mark");--> statement-breakpoint
CREATE INDEX "cards_name_terms_idx" ON "cards" USING gin ("name_terms") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "cards_name_keys_idx" ON "cards" USING gin ("name_keys") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "cards_types_lc_idx" ON "cards" USING gin ("types_lc") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "cards_subtypes_lc_idx" ON "cards" USING gin ("subtypes_lc") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "cards_dex_idx" ON "cards" USING gin ("national_pokedex_numbers") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "cards_languages_idx" ON "cards" USING gin ("languages") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "changes_kind_seq_idx" ON "changes" USING btree ("kind","seq");--> statement-breakpoint
CREATE INDEX "changes_entity_idx" ON "changes" USING btree ("entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "images_owner_idx" ON "images" USING btree ("owner_kind","owner_id","face","size");--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_sku_idx" ON "sealed_products" USING btree (lower("sku"));--> statement-breakpoint
CREATE INDEX "sealed_name_idx" ON "sealed_products" USING btree ("name","slug");--> statement-breakpoint
CREATE INDEX "sealed_release_date_idx" ON "sealed_products" USING btree ("release_date","slug");--> statement-breakpoint
CREATE INDEX "sealed_set_idx" ON "sealed_products" USING btree ("set_id");--> statement-breakpoint
CREATE INDEX "series_set_count_idx" ON "series" USING btree ("set_count","id");--> statement-breakpoint
CREATE INDEX "series_name_idx" ON "series" USING btree ("name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sets_id_lower_idx" ON "sets" USING btree ("id_lower");--> statement-breakpoint
CREATE UNIQUE INDEX "sets_alt_id_idx" ON "sets" USING btree (lower("alt_id"));--> statement-breakpoint
CREATE INDEX "sets_ptcgo_code_idx" ON "sets" USING btree ("ptcgo_code");--> statement-breakpoint
CREATE INDEX "sets_series_idx" ON "sets" USING btree ("series_id","release_date");--> statement-breakpoint
CREATE INDEX "sets_release_date_idx" ON "sets" USING btree ("release_date","id");--> statement-breakpoint
CREATE INDEX "sets_name_idx" ON "sets" USING btree ("name","id");