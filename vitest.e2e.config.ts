import { defineConfig } from "vitest/config";

/** Browser scenarios: Playwright (playwright-core + Debian Chromium) against the built server. */
export default defineConfig({
  test: {
    name: "e2e",
    include: ["apps/web/e2e/**/*.e2e.test.ts"],
    globalSetup: ["apps/web/e2e/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file runs its own server over a copy of the demo world (support/server.ts, decision 229),
    // so files may run at once: E2E_WORKERS=2 does. One at a time by default: with two at once on
    // two cores, a scenario waiting for a 4 s toast missed it once in two full runs.
    maxWorkers: Number(process.env.E2E_WORKERS) || 1,
  },
});
