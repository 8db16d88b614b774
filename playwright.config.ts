import { defineConfig, devices } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "./e2e/env";
import { TEST_STORAGE_DIR, TEST_VISION_DIR } from "./tests/helpers/paths";

// End-to-end tests: the pages in Debian's Chromium, the API as a newcomer calls it.
// Build first (`npx next build`). With E2E_BASE_URL set, the tests run against that server;
// otherwise Playwright starts (or reuses) the app's own server, compiled as `npm start` runs it
// (`npm run serve`: scripts/serve.ts), on port 3210 (E2E_PORT for a second run on one machine).
// Nothing is downloaded: the browser is the system's /usr/bin/chromium (override with CHROMIUM_PATH).

const PORT = Number(process.env.E2E_PORT ?? 3210);
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    headless: true,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
  webServer: external
    ? undefined
    : {
        command: "node node_modules/tsx/dist/cli.mjs scripts/serve.ts",
        // Ready once pages answer; the health of the database is what a test then checks.
        url: `${baseURL}/`,
        reuseExistingServer: true,
        timeout: 120_000,
        stdout: "pipe",
        stderr: "pipe",
        // Playwright starts the server with this process's environment plus these entries.
        env: {
          NEXT_TELEMETRY_DISABLED: "1",
          NODE_ENV: "production",
          PORT: String(PORT),
          HOST: "127.0.0.1",
          ADMIN_TOKEN: E2E_ADMIN_TOKEN,
          // Billing against the local Stripe fake, as on the embedded default.
          STRIPE_FAKE: "1",
          STRIPE_FAKE_PORT: String(PORT + 1),
          // Every test signs up and signs in from 127.0.0.1: a test run's own limits.
          RATE_LIMIT_SIGNUP: "1000/3600",
          RATE_LIMIT_REGISTER: "1000/3600",
          RATE_LIMIT_SIGNIN: "1000/300",
          RATE_LIMIT_MAIL: "1000/3600",
          // The index the integration run built for the same catalogue: loaded, not rebuilt.
          VISION_INDEX_DIR: process.env.VISION_INDEX_DIR ?? TEST_VISION_DIR,
          // The files behind the shared test database's image records (the integration run stores them there).
          STORAGE_DIR: process.env.STORAGE_DIR ?? TEST_STORAGE_DIR,
          ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
        },
      },
});
