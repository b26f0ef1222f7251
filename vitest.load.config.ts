import { defineConfig } from "vitest/config";

/**
 * `npm run test:load`: the full-size storms (`*.load.test.ts`), on real PostgreSQL only. Kept out
 * of `npm test`, which runs a smaller form of the same suite (storm.integration.test.ts).
 */
export default defineConfig({
  test: {
    name: "load",
    include: ["apps/*/test/**/*.load.test.ts"],
    globalSetup: ["apps/server/test/support/global-setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
  },
});
