ALTER TABLE "cards" ADD COLUMN "change_7d_pct" double precision;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "change_30d_pct" double precision;--> statement-breakpoint
CREATE INDEX "cards_change_7d_idx" ON "cards" USING btree ("change_7d_pct","id");--> statement-breakpoint
CREATE INDEX "cards_change_7d_desc_idx" ON "cards" USING btree ("change_7d_pct" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "cards_change_30d_idx" ON "cards" USING btree ("change_30d_pct","id");--> statement-breakpoint
CREATE INDEX "cards_change_30d_desc_idx" ON "cards" USING btree ("change_30d_pct" DESC NULLS FIRST,"id");