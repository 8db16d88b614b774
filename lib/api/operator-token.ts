import { env } from "@/lib/env";

/** The length an operator token must have on a deployment (one on PostgreSQL): a shorter one can be guessed. */
export const OPERATOR_TOKEN_MIN = 32;

/**
 * The configured operator token, if it may be used: at least OPERATOR_TOKEN_MIN characters, or
 * any on the embedded default (no DATABASE_URL), a machine's own test database, whose operator
 * (a black-box test run, say) sets what it likes; the servers warn of it there and refuse to
 * start with a short one anywhere else.
 */
export function operatorToken(): string | undefined {
  const token = process.env.ADMIN_TOKEN;
  if (!token) return undefined;
  return token.length >= OPERATOR_TOKEN_MIN || !env().DATABASE_URL ? token : undefined;
}
