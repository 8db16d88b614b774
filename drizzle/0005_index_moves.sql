CREATE TABLE "index_moves" (
	"window" text NOT NULL,
	"product_kind" text NOT NULL,
	"product_id" text NOT NULL,
	"from_date" date NOT NULL,
	"from_eur" double precision NOT NULL,
	"to_date" date NOT NULL,
	"to_eur" double precision NOT NULL,
	"change_pct" double precision NOT NULL,
	CONSTRAINT "index_moves_window_product_kind_product_id_pk" PRIMARY KEY("window","product_kind","product_id")
);
--> statement-breakpoint
CREATE INDEX "index_moves_rank_idx" ON "index_moves" USING btree ("window","product_kind","change_pct");