import { exportCsv } from "@/lib/collection/service";
import { FORBIDDEN, requestAccount, SIGNED_OUT } from "../session";

// GET /collection/export: the session's collection as CSV (docs/collection.md). A link on the
// page; another site may not make the browser fetch it with the cookie (Sec-Fetch-Site).

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return FORBIDDEN();
  const account = await requestAccount(req);
  if (!account) return SIGNED_OUT();
  const csv = await exportCsv(account.id);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="collection-${day}.csv"`,
      "cache-control": "no-store", "x-content-type-options": "nosniff",
    },
  });
}
