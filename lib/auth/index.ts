import { betterAuth } from "better-auth/minimal";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { getDb, type Db } from "@/lib/db/client";
import { authAccount, authSession, authUser, authVerification } from "@/lib/db/schema/auth";
import { configuredOrigin, env } from "@/lib/env";
import { authSecret } from "./secret";

// Dashboard sessions (better-auth): email and password. Who may hold a password is decided by
// lib/accounts, never by better-auth's own sign-up or reset endpoints (app/api/auth exposes
// only the session routes): a person registers through POST /v1/accounts/register, and a
// password is set or replaced only with a token mailed to the address (lib/accounts/recovery).
// Built lazily: it needs the database handle, and `next build` must not need a secret.

export const MIN_PASSWORD = 10;

function build(db: Db) {
  const baseURL = configuredOrigin();
  const port = env().PORT;
  return betterAuth({
    appName: "PokéPrice",
    secret: authSecret(),
    baseURL,
    basePath: "/api/auth",
    trustedOrigins: [...new Set([baseURL, `http://localhost:${port}`, `http://127.0.0.1:${port}`])],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: authUser, session: authSession, account: authAccount, verification: authVerification },
    }),
    emailAndPassword: {
      enabled: true,
      // Sign-in needs a confirmed address; confirmation is our own link (lib/accounts/confirm).
      requireEmailVerification: true,
      minPasswordLength: MIN_PASSWORD,
      revokeSessionsOnPasswordReset: true,
    },
    emailVerification: { sendOnSignUp: false, sendOnSignIn: false },
    // Its own limiter stays on for the routes it serves, keyed by the address the app's server
    // took from the socket; the app's limits (lib/accounts/abuse.ts) come on top.
    rateLimit: { enabled: true, window: 60, max: 60 },
    telemetry: { enabled: false },
    // Failed sign-ins are the app's to report (lib/accounts/signin.ts); plain lines in server logs.
    logger: { level: "error", disableColors: true },
    advanced: {
      useSecureCookies: baseURL.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof build>;
const slot = globalThis as unknown as { __auth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  return (slot.__auth ??= getDb().then(build).catch((err) => {
    slot.__auth = undefined;
    throw err;
  }));
}

async function context() {
  return (await getAuth()).$context;
}

/** The dashboard user with this address, if any. */
export async function findUserByEmail(email: string): Promise<{ id: string; emailVerified: boolean } | undefined> {
  const found = await (await context()).internalAdapter.findUserByEmail(email.toLowerCase());
  return found ? { id: found.user.id, emailVerified: found.user.emailVerified } : undefined;
}

/**
 * A dashboard user with a password. `exists` when the address has one already: the caller
 * decides what an existing user means, nothing is adopted here.
 */
export async function createPasswordUser(input: { email: string; password: string; name?: string; verified: boolean }):
  Promise<{ ok: true; userId: string } | { ok: false; reason: "exists" }> {
  const ctx = await context();
  const email = input.email.toLowerCase();
  if (await ctx.internalAdapter.findUserByEmail(email)) return { ok: false, reason: "exists" };
  const hash = await ctx.password.hash(input.password);
  let userId: string;
  try {
    userId = (await ctx.internalAdapter.createUser({ email, name: input.name ?? "", emailVerified: input.verified }, { method: "email-password" })).id;
  } catch (err) {
    // Two registrations racing for one address: the unique index lets one win.
    if (await ctx.internalAdapter.findUserByEmail(email)) return { ok: false, reason: "exists" };
    throw err;
  }
  await ctx.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
  return { ok: true, userId };
}

/** Sets (or replaces) a user's password, verifies the address and ends every session. */
export async function setPassword(userId: string, password: string): Promise<void> {
  const ctx = await context();
  const hash = await ctx.password.hash(password);
  if (await ctx.internalAdapter.findCredentialAccount(userId)) await ctx.internalAdapter.updatePassword(userId, hash);
  else await ctx.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
  await ctx.internalAdapter.updateUser(userId, { emailVerified: true });
  await ctx.internalAdapter.deleteUserSessions(userId);
}

/** Removes a user with its sessions and credentials (one nobody ever proved the address of). */
export async function deleteUser(userId: string): Promise<void> {
  const ctx = await context();
  await ctx.internalAdapter.deleteUserSessions(userId);
  await ctx.internalAdapter.deleteAccounts(userId);
  await ctx.internalAdapter.deleteUser(userId);
}

/** Whether `password` is the user's own: the one registered with, or set through recovery since. */
export async function passwordMatches(userId: string, password: string): Promise<boolean> {
  const ctx = await context();
  const account = await ctx.internalAdapter.findCredentialAccount(userId);
  if (!account?.password) return false;
  return ctx.password.verify({ hash: account.password, password });
}

export async function markEmailVerified(authUserId: string): Promise<void> {
  await (await context()).internalAdapter.updateUser(authUserId, { emailVerified: true });
}

/** A hash thrown away: paths that must cost what hashing a password costs, to look alike. */
export async function hashPassword(password: string): Promise<void> {
  await (await context()).password.hash(password);
}
