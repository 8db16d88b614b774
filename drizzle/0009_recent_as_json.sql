ALTER TABLE "price_series" ALTER COLUMN "recent" SET DATA TYPE json USING "recent"::json;
