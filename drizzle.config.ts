import { defineConfig } from "drizzle-kit";

// Migrations are generated from lib/db/schema and applied by lib/db/migrate.ts,
// to PostgreSQL and to the embedded PGlite alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./drizzle",
});
