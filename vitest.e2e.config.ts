import { defineConfig } from "vitest/config";

/** Browser scenarios: Playwright (playwright-core + Debian Chromium) against the built server. */
export default defineConfig({
  test: {
    name: "e2e",
    include: ["apps/web/e2e/**/*.e2e.test.ts"],
    globalSetup: ["apps/web/e2e/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
