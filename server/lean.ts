import http from "node:http";
import { allowOf, answer } from "@/app/api/v1/router";
import { fromResponse } from "@/lib/api/answer";
import { fail } from "@/lib/api/respond";
import { openMeterAtStart, stopBackgroundWork } from "./background";
import {
  answerClientErrors, badTarget, checkBeforeListening, MAX_HEADER_BYTES, internalError, isApiPath, onShutdown, securityHeaders, refuseTarget, sendAnswer, setSecurityHeaders, stampClientIp, toWebRequest,
} from "./http";

// The /v1 API alone on plain node:http, without Next.js: the same route modules through the
// same router (app/api/v1/router.ts) as server/app.ts, with no pages. For API-only
// deployments and for tests that need several app processes quickly.
//   PORT=3400 npx tsx server/lean.ts

const port = Number(process.env.PORT ?? 3400);

try {
  checkBeforeListening();
} catch (err) {
  console.error(`[lean] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, async (req, res) => {
  const bad = badTarget(req, `localhost:${port}`);
  if (bad) return void (await refuseTarget(res, bad, securityHeaders(req, true)));
  try {
    stampClientIp(req);
    const request = toWebRequest(req, `localhost:${port}`);
    const security = securityHeaders(req, true);
    // Undefined when written at once (no stream): nothing to wait for.
    const sending = sendAnswer(res, isApiPath(req.url ?? "/") ? await answer(request) : fromResponse(fail(request, "NOT_FOUND", "Only /v1 is served here.")), security);
    if (sending) await sending;
  } catch (err) {
    if (!res.headersSent) setSecurityHeaders(req, res, true);
    internalError(res, err);
  }
});

server.keepAliveTimeout = 65_000;
answerClientErrors(server, allowOf);
server.listen(port, () => {
  console.log(`[lean] /v1 on http://localhost:${port}`);
  openMeterAtStart();
});
onShutdown(server, stopBackgroundWork);
