import { fail } from "@/lib/api/respond";
import { findSet } from "@/lib/catalog/sets";
import { setSymbolSvg } from "@/lib/catalog/symbol";
import { badgeText } from "../../catalogue";
import { segment } from "../../../segment";

// GET /sets/{code}/symbol.svg: the set's symbol, drawn by the app (lib/catalog/symbol.ts says
// why not the catalogue's own logo). Same origin, so the pages' CSP (img-src 'self') admits it;
// the set's code and series change with a catalogue import at most, so browsers keep it a day.

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ code: string }> }) {
  const raw = (await params).code;
  const decoded = segment(raw);
  const code = decoded ?? raw;
  const set = decoded !== null && decoded.length <= 200 ? await findSet(decoded) : undefined;
  if (!set) return fail(req, "SET_NOT_FOUND", `No set with code, slug or alternate id '${code.slice(0, 200)}'.`, { code: code.slice(0, 200) });
  const svg = setSymbolSvg({ badge: badgeText(set), seriesId: set.series_id, name: `${set.name} symbol` });
  return new Response(svg, {
    headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" },
  });
}
