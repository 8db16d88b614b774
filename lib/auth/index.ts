import { betterAuth } from "better-auth/minimal";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { getDb, type Db } from "@/lib/db/client";
import { authAccount, authSession, authUser, authVerification } from "@/lib/db/schema/auth";
import { enqueue } from "@/lib/mail/outbox";
import { authSecret } from "./secret";

// Dashboard sessions (better-auth): email and password, verification through our own
// confirmation link, password reset through the recovery page. Built lazily: it needs the
// database handle, and `next build` must not need a secret.

function build(db: Db) {
  const baseURL = process.env.BETTER_AUTH_URL ?? process.env.PUBLIC_BASE_URL;
  const auth = betterAuth({
    appName: "PokéPrice",
    secret: authSecret(),
    baseURL,
    basePath: "/api/auth",
    trustedOrigins: [baseURL, "http://localhost:3000", "http://127.0.0.1:3000"].filter((o): o is string => !!o),
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: authUser, session: authSession, account: authAccount, verification: authVerification },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 10,
      resetPasswordTokenExpiresIn: 3600,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url, token }) => {
        // The recovery page asks with an absolute redirect to its own /reset-password: the
        // link then works on whatever host the person used, configured or not.
        const callback = new URL(url, "http://localhost").searchParams.get("callbackURL") ?? "";
        const page = /^https?:\/\//.test(callback) ? callback : `${baseURL ?? "http://localhost:3000"}/reset-password`;
        await enqueue({
          to: user.email,
          subject: "Set your PokéPrice password",
          text: [
            "Someone asked to set or reset the password of this PokéPrice account. If it was you, open:",
            "",
            `${page}${page.includes("?") ? "&" : "?"}token=${token}`,
            "",
            "The link works once and expires in one hour. If it was not you, ignore this mail: nothing changes.",
          ].join("\n"),
          kind: "reset_password",
        });
      },
      // A reset proves the person reads the mailbox: the address counts as confirmed.
      onPasswordReset: async ({ user }) => {
        const { confirmByAuthUser } = await import("@/lib/accounts/signup");
        await confirmByAuthUser(user.id);
        if (!user.emailVerified) await (await auth.$context).internalAdapter.updateUser(user.id, { emailVerified: true });
      },
    },
    // Our own confirmation link verifies the address (lib/accounts/confirm.ts), for script
    // accounts and persons alike; better-auth sends nothing of its own.
    emailVerification: { sendOnSignUp: false, sendOnSignIn: false },
    // Per-IP limits are ours (lib/accounts/abuse.ts), on the routes that need them.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: { useSecureCookies: (baseURL ?? "").startsWith("https://") },
    plugins: [nextCookies()],
  });
  return auth;
}

export type Auth = ReturnType<typeof build>;
const slot = globalThis as unknown as { __auth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  return (slot.__auth ??= getDb().then(build).catch((err) => {
    slot.__auth = undefined;
    throw err;
  }));
}

/** A dashboard user without a password (script accounts): recovery sets one later. */
export async function createDashboardUser(email: string): Promise<string> {
  const ctx = await (await getAuth()).$context;
  const existing = await ctx.internalAdapter.findUserByEmail(email.toLowerCase());
  if (existing) return existing.user.id;
  const user = await ctx.internalAdapter.createUser({ email: email.toLowerCase(), name: "", emailVerified: false }, { method: "admin" } as never);
  return user.id;
}

export async function markEmailVerified(authUserId: string): Promise<void> {
  const ctx = await (await getAuth()).$context;
  await ctx.internalAdapter.updateUser(authUserId, { emailVerified: true });
}
