import { ApiError } from "@/lib/api/errors";
import { findCard } from "@/lib/catalog/cards/get";
import { segment } from "../../../segment";
import { chartData, parseRange } from "../explorer-data";

// GET /cards/{id}/chart?window=30d&printing=HOLOFOIL: the card page's chart for another range,
// as JSON, for the page's own script (no key: the page shows the same figures). Not an API route.

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const url = new URL(req.url);
  const id = segment((await params).id);
  if (id === null) return Response.json({ error: "No such card." }, { status: 404 });
  try {
    const card = await findCard(id);
    const printing = url.searchParams.get("printing") || null;
    const data = await chartData("card", card.id, card.s_print_region, parseRange(url.searchParams.get("window") ?? undefined), printing);
    return Response.json(data, { headers: { "cache-control": "public, max-age=300" } });
  } catch (err) {
    if (err instanceof ApiError && err.code === "CARD_NOT_FOUND") return Response.json({ error: err.message }, { status: 404 });
    throw err;
  }
}
