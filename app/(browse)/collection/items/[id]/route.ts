import { CollectionNotFound, removeItem, setQuantity } from "@/lib/collection/service";
import { boundedBody, FORBIDDEN, json, NOT_FOUND, requestAccount, sameOrigin, SIGNED_OUT } from "../../session";

// PATCH /collection/items/{id} {"quantity": n} and DELETE /collection/items/{id}: the page's
// TanStack Query mutations. Same-origin only; the session's account only (another account's
// item is 404, like one that never existed); a body of at most 1 KB.

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };
const itemId = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : 0);

export async function PATCH(req: Request, ctx: Ctx): Promise<Response> {
  if (!sameOrigin(req)) return FORBIDDEN();
  const account = await requestAccount(req);
  if (!account) return SIGNED_OUT();
  const body = await boundedBody(req, 1024);
  if (body instanceof Response) return body;
  let quantity: unknown;
  try {
    quantity = (JSON.parse(new TextDecoder().decode(body)) as { quantity?: unknown }).quantity;
  } catch {
    return json(400, { error: { code: "INVALID_BODY", message: 'The body must be JSON: {"quantity": 2}.' } });
  }
  try {
    const r = await setQuantity(account.id, itemId((await ctx.params).id), quantity);
    if (!r.ok) return json(400, { error: { code: "INVALID_QUANTITY", message: r.error } });
    return json(200, { data: r.value });
  } catch (err) {
    if (err instanceof CollectionNotFound) return NOT_FOUND();
    throw err;
  }
}

export async function DELETE(req: Request, ctx: Ctx): Promise<Response> {
  if (!sameOrigin(req)) return FORBIDDEN();
  const account = await requestAccount(req);
  if (!account) return SIGNED_OUT();
  try {
    await removeItem(account.id, itemId((await ctx.params).id));
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  } catch (err) {
    if (err instanceof CollectionNotFound) return NOT_FOUND();
    throw err;
  }
}
