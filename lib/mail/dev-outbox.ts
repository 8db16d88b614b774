import { localOwner, namesThisMachine } from "@/lib/api/client-ip";
import { isOperator } from "@/lib/api/auth";
import { configuredOrigin, env } from "@/lib/env";

// The development outbox (/dev/outbox) lists live confirmation and reset links, so it is shown
// only where that cannot hand someone else's account to a stranger: with no mail server
// configured, and then in development, to the operator (Authorization: Bearer ADMIN_TOKEN), or
// on the embedded default (no DATABASE_URL) to a caller on this very machine — the newcomer
// who just ran `npm start`. A production deployment shows it to nobody else.

export type OutboxAccess = "development" | "operator" | "local" | "closed";

export function outboxAccess(req: Request): OutboxAccess {
  if (process.env.SMTP_URL) return "closed";
  if (isOperator(req)) return "operator";
  if (!namesThisMachine(req.headers.get("host"), configuredOrigin())) return "closed";
  if (env().NODE_ENV !== "production") return "development";
  if (localOwner(req)) return "local";
  return "closed";
}
