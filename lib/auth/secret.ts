import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * BETTER_AUTH_SECRET when set. Otherwise (the zero-setup start) a random secret is made once
 * and kept next to the embedded database, so sessions survive restarts. Production with
 * several instances must set BETTER_AUTH_SECRET: each instance would otherwise sign alone.
 */
export function authSecret(): string {
  const configured = process.env.BETTER_AUTH_SECRET ?? process.env.AUTH_SECRET;
  if (configured) return configured;
  // A path known only at run time: the ignore comments keep Turbopack from tracing (and
  // shipping) the whole project because of it.
  const file = path.resolve(/*turbopackIgnore: true*/ process.env.AUTH_SECRET_FILE ?? "./data/auth-secret");
  if (existsSync(/*turbopackIgnore: true*/ file)) return readFileSync(/*turbopackIgnore: true*/ file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
