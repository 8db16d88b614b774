import { POST as api } from "@/app/api/v1/centering/confirm/route";
import { callAsSignedIn } from "../session-call";

// POST /dashboard/centering/confirm: POST /v1/centering/confirm for the signed-in account.
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  return callAsSignedIn(req, api.spec!);
}
