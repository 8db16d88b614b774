CREATE TABLE "price_docs" (
	"product_kind" text NOT NULL,
	"product_id" text NOT NULL,
	"doc" text NOT NULL,
	CONSTRAINT "price_docs_product_kind_product_id_pk" PRIMARY KEY("product_kind","product_id")
);
--> statement-breakpoint
-- Existing series keep serving: their documents are built here (lib/prices/docs.ts keeps them).
INSERT INTO "price_docs" ("product_kind", "product_id", "doc")
SELECT "product_kind", "product_id", json_agg(json_build_array("id", "source", "variant", "basis", "currency", "locale", "condition",
  "printing", "grading_company", "grading_score", "provenance", "recent", "last_as_of"::text) ORDER BY "id")::text
FROM "price_series" GROUP BY "product_kind", "product_id";
