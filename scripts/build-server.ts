import { buildSync } from "esbuild";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { newest } from "./build-if-stale";

// The app's servers compiled once to plain JavaScript (dist/app.mjs, dist/lean.mjs), as
// production runs them. Run through tsx instead, the same server answered the metered card route
// 7 to 10 % slower under load (medians of six alternating rounds, twice on one machine: 8,174
// against 9,043 req/s, 7,413 against 7,991): tsx's esbuild wraps every function made at run
// time in a naming helper (keepNames), and the API makes closures on every request. Packages
// stay external: node loads them from node_modules as it does for tsx. Bundling takes about a
// second.

const ROOT = process.cwd();
const SERVERS = { app: "server/app.ts", lean: "server/lean.ts" } as const;
export type ServerName = keyof typeof SERVERS;

export const serverBundle = (name: ServerName) => path.join(ROOT, "dist", `${name}.mjs`);

/** The sources a bundle is made of: newer than the bundle, it is made again. */
function sourcesChangedAt(): number {
  return Math.max(
    ...["app", "lib", "server"].filter((d) => existsSync(d)).map((d) => newest(path.join(ROOT, d))),
    ...["package.json", "tsconfig.json", "scripts/build-server.ts"].map((f) => statSync(f).mtimeMs),
  );
}

/** Bundles the servers when a source is newer than their bundle; returns the one asked for. */
export function buildServerIfStale(name: ServerName = "app"): string {
  const out = serverBundle(name);
  if (existsSync(out) && statSync(out).mtimeMs > sourcesChangedAt()) return out;
  buildSync({
    entryPoints: Object.fromEntries(Object.entries(SERVERS).map(([n, src]) => [n, path.join(ROOT, src)])),
    outdir: path.join(ROOT, "dist"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  return out;
}
