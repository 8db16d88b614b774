import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

// Real processes for the tests that need them: lean app servers (server/lean.ts) and a
// redis-server of the test's own, on free ports.

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export type Proc = { port: number; url: string; stop: () => Promise<void>; child: ChildProcess };

async function waitFor(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up`);
}

/**
 * SIGTERM to the server's process, or with `group` SIGINT to its whole process group, as Ctrl-C
 * in a terminal sends it: tsx's esbuild service then stops with the server.
 */
function stopper(child: ChildProcess, group = false): () => Promise<void> {
  const signal = (sig: NodeJS.Signals) => (group ? process.kill(-child.pid!, sig) : child.kill(sig));
  return () => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    signal(group ? "SIGINT" : "SIGTERM");
    setTimeout(() => signal("SIGKILL"), 5000).unref();
  });
}

/** A lean server; `group`: in a process group of its own, stopped as Ctrl-C stops it. */
export async function startLeanServer(env: Record<string, string>, opts: { group?: boolean } = {}): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "server/lean.ts"], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
    detached: opts.group ?? false,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/v1/health`)).ok, `lean server on ${port}`);
  return { port, url, child, stop: stopper(child, opts.group) };
}

export async function startRedis(port?: number): Promise<Proc> {
  const p = port ?? (await freePort());
  const child = spawn("redis-server", ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const url = `redis://127.0.0.1:${p}`;
  await waitFor(() => new Promise((resolve) => {
    const sock = net.connect(p, "127.0.0.1", () => { sock.end(); resolve(true); });
    sock.on("error", () => resolve(false));
  }), `redis-server on ${p}`);
  return { port: p, url, child, stop: stopper(child) };
}
