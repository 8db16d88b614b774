import { POST as api } from "@/app/api/v1/centering/measure/route";
import { callAsSignedIn } from "../session-call";

// POST /dashboard/centering/measure: POST /v1/centering/measure for the signed-in account.
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  return callAsSignedIn(req, api.spec!);
}
