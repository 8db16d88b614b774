import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

// `npm test`: every layer, in order, against the real PostgreSQL on 127.0.0.1:5432.
//   1. unit         pure functions
//   2. integration  route handlers against PostgreSQL; imports the full catalogue once
//   3. end-to-end   `next build`, then Playwright in Debian's Chromium against the app's own
//                   server, compiled as `npm start` runs it (`npm run serve`)
// `npm test -- --fast` stops after the integration layer.

const admin = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const catalogDb = process.env.TEST_CATALOG_DB ?? "pokeprice_test";
const dbUrl = (() => {
  const u = new URL(admin);
  u.pathname = `/${catalogDb}`;
  return u.toString();
})();
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", TEST_PG_ADMIN_URL: admin, TEST_CATALOG_DB: catalogDb };
const fast = process.argv.includes("--fast");

function step(name: string, cmd: string, args: string[], extra: Record<string, string> = {}): void {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...env, ...extra } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`✗ ${name} failed after ${secs} s`);
    process.exit(r.status ?? 1);
  }
  console.log(`✓ ${name} (${secs} s)`);
}

step("types", "npx", ["tsc", "--noEmit", "-p", "."]);
step("unit", "npx", ["vitest", "run", "--project", "unit"]);
step("integration", "npx", ["vitest", "run", "--project", "integration"]);
if (!fast) {
  if (!existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")) {
    console.error("✗ end-to-end needs Debian's Chromium: apt-get install -y chromium (.ci/run does this)");
    process.exit(1);
  }
  step("build", "npx", ["next", "build"], { DATABASE_URL: dbUrl });
  step("end-to-end", "npx", ["playwright", "test"], { DATABASE_URL: dbUrl });
}
console.log("\nAll tests passed.");
