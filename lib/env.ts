import { z } from "zod";

// Every environment variable the service reads, validated once. Unset means "embedded default".

export type Rate = { limit: number; windowS: number };
const rate = (fallback: string) =>
  z.string().regex(/^\d+\/\d+$/, "expected <count>/<seconds>, e.g. 10/3600").default(fallback)
    .transform((v): Rate => ({ limit: Number(v.split("/")[0]), windowS: Math.max(1, Number(v.split("/")[1])) }));
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().url().optional(),
  // Folder of the embedded PGlite database, used only when DATABASE_URL is unset.
  PGLITE_DIR: z.string().default("./data/pglite"),
  CATALOG_DIR: z.string().default("../shared/data/catalog"),
  // Price feed files, one folder per source (docs/price-feeds.md); demo-prices writes here too.
  PRICE_FEEDS_DIR: z.string().default("./data/feeds"),
  // The photo identification index (lib/vision/index-file.ts): built by the vision-index job.
  VISION_INDEX_DIR: z.string().default("./data/vision"),
  // Absolute origin used in links.next when the app sits behind a proxy that rewrites Host.
  PUBLIC_BASE_URL: z.string().url().optional(),
  // How many reverse proxies in front of the app append to X-Forwarded-For (0: none; the
  // caller's address is the socket's peer). With 1 or more, X-Forwarded-Host/Proto are used too.
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  PORT: z.coerce.number().int().positive().default(3000),
  APP_VERSION: z.string().default("0.1.0"),
  // Memory for rendered catalogue answers per process; 0 turns the cache off.
  RESPONSE_CACHE_MB: z.coerce.number().min(0).default(64),
  // Limits on what anyone may call without a key, as "<count>/<seconds>" (lib/accounts/abuse.ts).
  RATE_LIMIT_SIGNUP: rate("10/3600"),
  RATE_LIMIT_REGISTER: rate("10/3600"),
  RATE_LIMIT_SIGNIN: rate("20/300"),
  RATE_LIMIT_MAIL: rate("10/3600"),
  RATE_LIMIT_MAIL_RECIPIENT: rate("3/3600"),
  RATE_LIMIT_IMAGES: rate("600/60"),
  SIGNIN_LOCKOUT: rate("10/900"),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
      throw new Error(`Invalid environment:\n${lines.join("\n")}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/**
 * The origin links in mail point at: PUBLIC_BASE_URL, else BETTER_AUTH_URL, else this machine
 * on PORT. Never a request's Host header: a forged one would put an attacker's host into a
 * confirmation or reset link sent to someone else.
 */
export function configuredOrigin(): string {
  const e = env();
  const configured = e.PUBLIC_BASE_URL ?? process.env.BETTER_AUTH_URL;
  return (configured ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
}

/**
 * Whether a first start's background task (`variable`: DEMO_PRICES, BULK_ON_START) runs: "1" or
 * "0" when set, else on for the embedded default and off on PostgreSQL, where a deployment's jobs
 * do that work. Read at the call, as tests set it between cases.
 */
export function onFirstStart(variable: string): boolean {
  return (process.env[variable] ?? (process.env.DATABASE_URL ? "0" : "1")) === "1";
}

/** How many days of demo prices the first start generates (DEMO_PRICES_DAYS, a year by default). */
export const demoPriceDays = (): number => Number(process.env.DEMO_PRICES_DAYS ?? 365);

/** Tests change the environment between cases; this forgets the cached copy. */
export function resetEnvForTests(): void {
  cached = undefined;
}
