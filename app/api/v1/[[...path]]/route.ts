import { fail, noRouteText } from "@/lib/api/respond";

// Every path under /v1 that no route claims answers in the error envelope.
const notFound = async (req: Request) => fail(req, "NOT_FOUND", ...noRouteText(req));

// A path that does not exist serves no method: a preflight or HEAD of it is 404 too, not an Allow of GET.
export { notFound as GET, notFound as HEAD, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
