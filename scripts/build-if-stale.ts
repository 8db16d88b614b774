import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export function newest(dir: string): number {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const p = path.join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

/** Runs `next build` when any source is newer than the last build. */
export function buildIfStale(env: NodeJS.ProcessEnv = process.env): void {
  const root = process.cwd();
  const buildId = path.join(root, ".next", "BUILD_ID");
  const sources = Math.max(
    ...["app", "lib", "public", "drizzle"].filter((d) => existsSync(d)).map((d) => newest(path.join(root, d))),
    ...["next.config.ts", "package.json"].map((f) => statSync(f).mtimeMs),
  );
  if (existsSync(buildId) && statSync(buildId).mtimeMs > sources) return;
  console.log("[build] sources changed since the last build: next build");
  const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
