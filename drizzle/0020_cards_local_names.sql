CREATE INDEX "cards_name_en_idx" ON "cards" USING btree (coalesce("names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_fr_idx" ON "cards" USING btree (coalesce("names"->>'fr', "names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_de_idx" ON "cards" USING btree (coalesce("names"->>'de', "names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_ja_idx" ON "cards" USING btree (coalesce("names"->>'ja', "names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_it_idx" ON "cards" USING btree (coalesce("names"->>'it', "names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_es_idx" ON "cards" USING btree (coalesce("names"->>'es', "names"->>'es-mx', "names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_pt_idx" ON "cards" USING btree (coalesce("names"->>'pt', "names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_zh_idx" ON "cards" USING btree (coalesce("names"->>'zh-cn', "names"->>'zh-tw', "names"->>'en', "name"),"id");--> statement-breakpoint
CREATE INDEX "cards_name_ko_idx" ON "cards" USING btree (coalesce("names"->>'ko', "names"->>'en', "name"),"id");