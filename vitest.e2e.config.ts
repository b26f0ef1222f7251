import { defineConfig } from "vitest/config";
import { E2E_WORKERS } from "./apps/web/e2e/support/workers";

/** Browser scenarios: Playwright (playwright-core + Debian Chromium) against the built server. */
export default defineConfig({
  test: {
    name: "e2e",
    include: ["apps/web/e2e/**/*.e2e.test.ts"],
    globalSetup: ["apps/web/e2e/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server and database per worker (global-setup.ts, decision 229).
    maxWorkers: E2E_WORKERS,
  },
});
