import { suggestCardNames, SUGGEST_MAX_INPUT } from "@/lib/catalog/suggest";

// GET /cards/suggest?q=pikac: card names for the search box as the collector types (JSON). No
// key, like the pages around it; a name list is public and costs a few index probes.

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const q = new URL(req.url).searchParams.get("q") ?? "";
  const data = q.length > SUGGEST_MAX_INPUT * 2 ? [] : await suggestCardNames(q);
  return Response.json({ data }, { headers: { "cache-control": "public, max-age=300" } });
}
