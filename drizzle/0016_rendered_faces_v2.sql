-- Rendered faces drawn before the shared-artwork renderer (lib/vision/art.ts) give every card
-- art of its own and print no set code, number/total or language mark. Forget them: a card's
-- face is drawn again on its first request (or by render-faces), and the file is overwritten.
-- Downloads and scans are kept.
UPDATE "images" SET "storage_key" = NULL, "sha256" = NULL, "width" = NULL, "height" = NULL
WHERE "origin" = 'rendered' AND "storage_key" IS NOT NULL;
