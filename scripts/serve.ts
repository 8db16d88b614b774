import { spawn } from "node:child_process";
import { buildServerIfStale } from "./build-server";

// `npm run serve`: the app's server as `npm start` runs it (compiled, dist/app.mjs), without
// start's `next build` and first-start import: for a build and a database already in place (the
// end-to-end tests' server). Signals reach the server, whose exit code this process exits with.

export function runServer(env: NodeJS.ProcessEnv = process.env): void {
  const child = spawn(process.execPath, [buildServerIfStale("app")], { stdio: "inherit", env: { ...env, NODE_ENV: "production" } });
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1]?.endsWith("serve.ts")) runServer();
