ALTER TABLE "cards" ADD COLUMN "trial_index_eur" double precision;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "trial_last_price_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sealed_products" ADD COLUMN "trial_index_eur" double precision;--> statement-breakpoint
ALTER TABLE "sealed_products" ADD COLUMN "trial_last_price_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "cards_trial_index_eur_idx" ON "cards" USING btree ("trial_index_eur","id");--> statement-breakpoint
CREATE INDEX "cards_trial_index_eur_desc_idx" ON "cards" USING btree ("trial_index_eur" DESC NULLS FIRST,"id");--> statement-breakpoint
-- The trial's index of the products already indexed, from their English INDEX series as
-- refresh-index writes them (lib/prices/composite.ts trialIndex): the best-sampled entry, the
-- leading printing first on a tie; its date the newest of those entries.
WITH en AS (
  SELECT product_kind, product_id, printing, (recent->0->>1)::float8 AS eur, recent->0->>0 AS as_of,
    coalesce((recent->0->>2)::int, 0) AS n
  FROM price_series WHERE source = 'INDEX' AND locale = 'en' AND json_array_length(recent) > 0
), best AS (
  SELECT DISTINCT ON (product_kind, product_id) product_kind, product_id, eur,
    max(as_of) OVER (PARTITION BY product_kind, product_id) AS as_of
  FROM en
  ORDER BY product_kind, product_id, n DESC,
    array_position(ARRAY['NORMAL', 'HOLOFOIL', 'REVERSE_HOLO', 'FIRST_EDITION', 'FIRST_EDITION_HOLOFOIL'], printing) NULLS FIRST
)
UPDATE cards c SET trial_index_eur = b.eur, trial_last_price_at = (b.as_of || 'T00:00:00Z')::timestamptz
FROM best b WHERE b.product_kind = 'card' AND c.id = b.product_id;--> statement-breakpoint
WITH en AS (
  SELECT product_kind, product_id, printing, (recent->0->>1)::float8 AS eur, recent->0->>0 AS as_of,
    coalesce((recent->0->>2)::int, 0) AS n
  FROM price_series WHERE source = 'INDEX' AND locale = 'en' AND json_array_length(recent) > 0
), best AS (
  SELECT DISTINCT ON (product_kind, product_id) product_kind, product_id, eur,
    max(as_of) OVER (PARTITION BY product_kind, product_id) AS as_of
  FROM en
  ORDER BY product_kind, product_id, n DESC,
    array_position(ARRAY['NORMAL', 'HOLOFOIL', 'REVERSE_HOLO', 'FIRST_EDITION', 'FIRST_EDITION_HOLOFOIL'], printing) NULLS FIRST
)
UPDATE sealed_products p SET trial_index_eur = b.eur, trial_last_price_at = (b.as_of || 'T00:00:00Z')::timestamptz
FROM best b WHERE b.product_kind = 'sealed' AND p.slug = b.product_id;
