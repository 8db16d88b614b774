import type { Metadata } from "next";
import { NOT_FOUND_METADATA, NotFoundBody } from "@/app/not-found-body";

// A card, set, series, sealed product or artist the catalogue does not have (an old link, a
// mistyped id): 404 inside the collector pages' own layout, which draws the header.

export const metadata: Metadata = NOT_FOUND_METADATA;

export default function NotFound() {
  return <NotFoundBody />;
}
