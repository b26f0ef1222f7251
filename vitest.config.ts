import { defineConfig } from "vitest/config";
import { isTypeFetchFailure } from "./packages/db/src/type-fetch-failure";

/**
 * Three tiers, told apart by name: `*.test.ts` pure logic, `*.integration.test.ts` procedures on a
 * real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set), `e2e/*.e2e.test.ts` browser,
 * `*.load.test.ts` full-size storms (vitest.load.config.ts, `npm run test:load`, not in `npm test`).
 */
export default defineConfig({
  test: {
    // postgres.js's own type query failing on a connection the test cut (porsager/postgres#1192):
    // the server survives it in production (decision 222), so it is not a test failure either.
    onUnhandledError: (error) => !isTypeFetchFailure(error),
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "bench/test/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/*.load.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["apps/*/test/**/*.integration.test.ts", "packages/*/test/**/*.integration.test.ts", "bench/test/**/*.integration.test.ts"],
          globalSetup: ["apps/server/test/support/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: "forks",
        },
      },
    ],
  },
});
