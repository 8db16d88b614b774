import http from "node:http";
import next from "next";
import { allowOf, answer } from "@/app/api/v1/router";
import { ApiError } from "@/lib/api/errors";
import { errorAnswer, newRequestId } from "@/lib/api/respond";
import {
  actionRefusal, answerClientErrors, badTarget, checkBeforeListening, MAX_HEADER_BYTES, internalError, isApiPath, onShutdown, securityHeaders, refuseTarget, sendAnswer, setSecurityHeaders, stampClientIp, toWebRequest,
} from "./http";
import { startBackgroundWork, stopBackgroundWork } from "./background";
import { startEmbeddedStripe } from "./stripe-fake";

// The app in one process: /v1 through the API's own dispatcher (Next's request handling would
// cost the API about 5×), every other path (pages, dashboard, docs, images, better-auth)
// through Next. Both see the caller's address as this server established it from the socket.
//   npm start  (builds when stale, imports the catalogue on a first start, then runs this)

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

const PAGE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * What Next would answer with a 500, refused here instead: TRACE and made-up methods, and forms
 * posted from another origin or over the server actions' body limit (actionRefusal).
 */
function pageRefusal(req: http.IncomingMessage): ApiError | undefined {
  if (!PAGE_METHODS.has(req.method ?? "")) return new ApiError("METHOD_NOT_ALLOWED", `${req.method} is not a method pages answer.`);
  return actionRefusal(req);
}

async function main(): Promise<void> {
  checkBeforeListening();
  // Start-up work runs here, next to the /v1 modules that use it; Next's instrumentation hook
  // stands down (instrumentation.ts).
  process.env.POKEPRICE_SERVER = "app";
  await startEmbeddedStripe(port);
  const app = next({ dev, dir: process.cwd(), hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, async (req, res) => {
    const bad = badTarget(req, `localhost:${port}`);
    if (bad) return void (await refuseTarget(res, bad, securityHeaders(req, true)));
    const api = isApiPath(req.url ?? "/");
    let why: ApiError | undefined;
    try {
      stampClientIp(req);
      if (api) {
        const sending = sendAnswer(res, await answer(toWebRequest(req, `localhost:${port}`)), securityHeaders(req, true));
        if (sending) await sending;
      } else if ((why = pageRefusal(req))) {
        const refused = sendAnswer(res, errorAnswer(why, newRequestId()), securityHeaders(req, true));
        if (refused) await refused;
      } else {
        setSecurityHeaders(req, res, false, dev);
        // Pages and images carry a request id as the API's answers do (a route's own id replaces it).
        res.setHeader("x-request-id", newRequestId());
        await handle(req, res);
      }
    } catch (err) {
      if (!res.headersSent) setSecurityHeaders(req, res, api, dev);
      internalError(res, err);
    }
  });
  // Longer than a load balancer's idle timeout, so it never reuses a socket we just closed.
  server.keepAliveTimeout = 65_000;
  // In development, Next's live reload upgrades its own connections; nothing else is upgraded.
  const nextUpgrade = dev ? app.getUpgradeHandler() : undefined;
  answerClientErrors(server, allowOf, (req, socket, head) => {
    if (!nextUpgrade || isApiPath(req.url ?? "/")) return false;
    void nextUpgrade(req, socket, head);
    return true;
  });
  server.listen(port, hostname, () => {
    console.log(`[server] http://localhost:${port} (API at /v1, reference at /docs)${dev ? " in development mode" : ""}`);
    startBackgroundWork();
  });
  onShutdown(server, async () => {
    await stopBackgroundWork();
    await app.close();
  });
}

main().catch((err) => {
  console.error(`[server] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
