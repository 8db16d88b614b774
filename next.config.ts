import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  // Parallel builds in one checkout (engineers, CI shards) each use their own output folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default config;
