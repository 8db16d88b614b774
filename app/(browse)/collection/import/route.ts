import { MULTIPART_OVERHEAD } from "@/lib/api/body";
import { MAX_CSV_BYTES } from "@/lib/collection/csv";
import { noticeQuery, type Notice } from "@/lib/collection/notice";
import { importCsv } from "@/lib/collection/service";
import { boundedBody, FORBIDDEN, json, requestAccount, sameOrigin, SIGNED_OUT } from "../session";

// POST /collection/import: a CSV file (multipart field `file`) added to the session's collection
// whole or not at all (docs/collection.md). The page's script asks for JSON; a plain form (no
// script) is sent back to the page with the outcome in its query. Same-origin only; the body
// is limited to the file's 1 MB and the multipart framing.

export const dynamic = "force-dynamic";

const MAX_BODY = MAX_CSV_BYTES + MULTIPART_OVERHEAD;
const TOO_LARGE = `The file is larger than ${MAX_CSV_BYTES.toLocaleString("en")} bytes (1 MB); an import takes at most that. Split it into several files.`;

export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return FORBIDDEN();
  const wantsJson = (req.headers.get("accept") ?? "").includes("application/json");
  const back = (q: Notice) =>
    new Response(null, { status: 303, headers: { location: `/collection?${noticeQuery(q)}#import`, "cache-control": "no-store" } });
  const answer = (status: number, body: { imported?: number; errors?: string[]; count?: number }) =>
    wantsJson ? json(status, body)
      : back(body.errors ? { import_errors: body.errors.slice(0, 20).join("\n").slice(0, 1500), import_error_count: String(body.count ?? body.errors.length) } : { imported: String(body.imported ?? 0) });

  const account = await requestAccount(req);
  if (!account) return wantsJson ? SIGNED_OUT() : new Response(null, { status: 303, headers: { location: "/sign-in" } });
  const body = await boundedBody(req, MAX_BODY);
  if (body instanceof Response) return answer(413, { errors: [TOO_LARGE], count: 1 });
  let file: FormDataEntryValue | null;
  try {
    const form = await new Request("http://localhost/", { method: "POST", headers: { "content-type": req.headers.get("content-type") ?? "" }, body: body as BodyInit }).formData();
    file = form.get("file");
  } catch {
    return answer(400, { errors: ["Send the file as a form upload (multipart/form-data, field \"file\")."], count: 1 });
  }
  if (!file || typeof file === "string" || file.size === 0) return answer(400, { errors: ["Choose a CSV file to import."], count: 1 });
  if (file.size > MAX_CSV_BYTES) return answer(413, { errors: [TOO_LARGE], count: 1 });
  const r = await importCsv(account.id, new Uint8Array(await file.arrayBuffer()));
  return r.ok ? answer(200, { imported: r.imported }) : answer(422, { errors: r.errors, count: r.count });
}
