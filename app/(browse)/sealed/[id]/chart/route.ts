import { sealedSlug } from "@/lib/prices/queries/read";
import { chartData, parseRange } from "../../../cards/[id]/explorer-data";
import { segment } from "../../../segment";

// GET /sealed/{id}/chart?window=30d: the sealed product page's chart for another range, as JSON
// for the page's own script. Not an API route.

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const url = new URL(req.url);
  const id = segment((await params).id);
  const slug = id === null ? null : await sealedSlug(id);
  if (!slug) return Response.json({ error: "No such sealed product." }, { status: 404 });
  const data = await chartData("sealed", slug, null, parseRange(url.searchParams.get("window") ?? undefined), url.searchParams.get("printing") || null);
  return Response.json(data, { headers: { "cache-control": "public, max-age=300" } });
}
