import path from "node:path";
import { defineConfig } from "vitest/config";
import { TEST_STORAGE_DIR, TEST_VISION_DIR } from "./tests/helpers/paths";

const alias = { "@": path.resolve(__dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", sequence: { groupOrder: 0 } },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          sequence: { groupOrder: 1 },
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/helpers/global-setup.ts"],
          // Files built from the shared database (bulk exports) go to one folder all files share.
          env: { STORAGE_DIR: TEST_STORAGE_DIR, VISION_INDEX_DIR: TEST_VISION_DIR },
          // One database, imported once per run, shared read-only by the files; files that
          // write use a database of their own (see tests/helpers/db.ts).
          pool: "forks",
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
