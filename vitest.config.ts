import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { isTypeFetchFailure } from "./packages/db/src/type-fetch-failure";

/**
 * Three tiers, told apart by name: `*.test.ts` pure logic, `*.integration.test.ts` procedures on a
 * real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set), `e2e/*.e2e.test.ts` browser,
 * `*.load.test.ts` full-size storms (vitest.load.config.ts, `npm run test:load`, not in `npm test`).
 */
/**
 * Test files at once: one more than the cores. The integration files mostly wait (on PostgreSQL, on
 * servers they start, on timers), and Vitest's default (cores - 1) ran them one at a time on the
 * two-core machines CI uses: 990 s, against ~430 s with three (decision 229).
 */
const WORKERS = availableParallelism() + 1;

/**
 * Files whose assertions compare wall-clock times measured through a server (a timing side channel,
 * a burst's window, a shutdown's bound): they run afterwards, one at a time, on a quiet machine.
 */
const TIMED = [
  "apps/server/test/auth/reset-timing.integration.test.ts",
  "apps/server/test/auth/session-cache.integration.test.ts",
  "apps/server/test/load/sigterm.integration.test.ts",
];

const INTEGRATION = ["apps/*/test/**/*.integration.test.ts", "packages/*/test/**/*.integration.test.ts", "bench/test/**/*.integration.test.ts"];
const INTEGRATION_SETTINGS = {
  globalSetup: ["apps/server/test/support/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: "forks" as const,
};

export default defineConfig({
  test: {
    // postgres.js's own type query failing on a connection the test cut (porsager/postgres#1192):
    // the server survives it in production (decision 222), so it is not a test failure either.
    onUnhandledError: (error) => !isTypeFetchFailure(error),
    projects: [
      {
        test: {
          name: "unit",
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
          include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "bench/test/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/*.load.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: INTEGRATION,
          exclude: [...TIMED, "**/node_modules/**"],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
          ...INTEGRATION_SETTINGS,
        },
      },
      {
        test: {
          name: "integration-timed",
          include: TIMED,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          ...INTEGRATION_SETTINGS,
        },
      },
    ],
  },
});
