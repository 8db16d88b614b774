import { fail, optionsResponse } from "@/lib/api/respond";

// Every path under /v1 that no route claims answers in the error envelope.
const notFound = async (req: Request) => {
  const path = new URL(req.url).pathname.replace(/^\/api\/v1/, "/v1");
  return fail(req, "NOT_FOUND", `No route ${req.method} ${path}. The API reference is at /v1/openapi.json.`, { path });
};

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
export const OPTIONS = async (req: Request) => optionsResponse(req, "GET");
