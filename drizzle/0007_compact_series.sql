-- Series keys become the md5 of the joined key (16 bytes instead of ~70 plus their index), and
-- recent points are stored as [as_of, amount, sample_n(, observed_at)] arrays. Existing rows
-- are carried over.
ALTER TABLE "price_series" ADD COLUMN "key_hash" uuid;--> statement-breakpoint
UPDATE "price_series" SET "key_hash" = md5("key")::uuid,
  "recent" = coalesce((
    SELECT jsonb_agg(CASE WHEN p->>'observed_at' IS NULL OR (p->>'observed_at')::timestamptz = (p->>'as_of')::date::timestamp AT TIME ZONE 'UTC'
      THEN jsonb_build_array(p->'as_of', p->'amount', p->'sample_n')
      ELSE jsonb_build_array(p->'as_of', p->'amount', p->'sample_n', p->'observed_at') END ORDER BY ord)
    FROM jsonb_array_elements("recent") WITH ORDINALITY AS e(p, ord)
  ), '[]'::jsonb);--> statement-breakpoint
ALTER TABLE "price_series" ALTER COLUMN "key_hash" SET NOT NULL;--> statement-breakpoint
DROP INDEX "price_series_key_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "price_series_key_hash_idx" ON "price_series" USING btree ("key_hash");--> statement-breakpoint
ALTER TABLE "price_series" DROP COLUMN "key";
