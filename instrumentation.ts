// Next's start-up hook (once per server process), for when Next serves alone (`next start`,
// `next dev`): the app's background work (server/background.ts). Under the app's own server
// (server/app.ts) that work starts there instead, next to the /v1 modules that use it. Only in
// the Node.js runtime and never during `next build`.

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  if (process.env.POKEPRICE_SERVER === "app") return;
  (await import("./server/background")).startBackgroundWork();
}
