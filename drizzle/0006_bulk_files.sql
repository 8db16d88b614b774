CREATE TABLE "bulk_files" (
	"type" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"rows" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
