import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { dataOf } from "@/lib/api/schemas";
import { getArtist } from "@/lib/catalog/lists";
import { ArtistObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/artists/{slug}",
    operationId: "getArtist",
    summary: "One artist",
    description: "Their cards: GET /v1/cards?q=artist:\"<name>\".",
    tags: ["Artists"],
    auth: "key",
    params: z.object({ slug: z.string().min(1).max(200).meta({ description: "The artist's slug, as GET /v1/artists lists it.", example: "ken-sugimori" }) }),
    response: dataOf(ArtistObject),
    errors: ["ARTIST_NOT_FOUND", "INVALID_PARAMETER"],
    cost: COSTS.artistGet,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ params }) => getArtist(params.slug),
  }),
});
