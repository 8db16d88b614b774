import { z } from "zod";

// Every environment variable the service reads, validated once. Unset means "embedded default".
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
  // Behind a reverse proxy that sets X-Forwarded-Host/Proto, and only then: 1.
  TRUST_PROXY: z.enum(["0", "1"]).default("0").transform((v) => v === "1"),
  PORT: z.coerce.number().int().positive().default(3000),
  APP_VERSION: z.string().default("0.1.0"),
  // Memory for rendered catalogue answers per process; 0 turns the cache off.
  RESPONSE_CACHE_MB: z.coerce.number().min(0).default(64),
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

/** Tests change the environment between cases; this forgets the cached copy. */
export function resetEnvForTests(): void {
  cached = undefined;
}
