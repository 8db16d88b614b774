CREATE TABLE "catalog_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "card_terms_pattern_idx" ON "card_terms" USING btree ("term" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "cards_updated_at_desc_idx" ON "cards" USING btree ("updated_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "cards_release_date_desc_idx" ON "cards" USING btree ("release_date" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "cards_hp_desc_idx" ON "cards" USING btree ("hp" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "cards_index_eur_desc_idx" ON "cards" USING btree ("index_eur" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "cards_last_price_at_desc_idx" ON "cards" USING btree ("last_price_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "cards_series_idx" ON "cards" USING btree ("series_id");--> statement-breakpoint
ALTER TABLE "cards" DROP COLUMN "images";