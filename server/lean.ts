import http from "node:http";
import { Readable } from "node:stream";
import { dispatch } from "@/app/api/v1/router";
import { flushLedger } from "@/lib/meter/ledger";

// The /v1 API on plain node:http, without Next.js: the same route modules through the same
// router (app/api/v1/router.ts). For deployments where Next's routing would dominate the
// API's cost, and for tests that need several app processes quickly.
//   PORT=3400 npx tsx server/lean.ts

const port = Number(process.env.PORT ?? 3400);

const server = http.createServer(async (req, res) => {
  try {
    const url = `http://${req.headers.host ?? `localhost:${port}`}${req.url ?? "/"}`;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) for (const x of v) headers.append(k, x);
      else if (v !== undefined) headers.set(k, v);
    }
    // As Next does: the caller's address when no proxy named one.
    if (!headers.has("x-forwarded-for") && req.socket.remoteAddress) headers.set("x-forwarded-for", req.socket.remoteAddress);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    const response = new URL(url).pathname.startsWith("/v1")
      ? await dispatch(request)
      : new Response(JSON.stringify({ error: { code: "NOT_FOUND", message: "Only /v1 is served here.", request_id: "-" } }), { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (err) {
    console.error(err);
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "INTERNAL_ERROR", message: "Internal error.", request_id: "-" } }));
  }
});

server.keepAliveTimeout = 5000;
server.listen(port, () => console.log(`[lean] /v1 on http://localhost:${port}`));

const stop = async () => {
  server.close();
  await flushLedger();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
