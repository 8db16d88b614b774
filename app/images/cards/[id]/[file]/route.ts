import { serveCardImage } from "@/lib/images/serve";

// Card images in storage, by card id and size: /images/cards/base1-4/front-large.webp. Not
// metered: the links come from include=images answers that were.
export async function GET(req: Request, ctx: { params: Promise<{ id: string; file: string }> }): Promise<Response> {
  const { id, file } = await ctx.params;
  return serveCardImage(req, id, file);
}
