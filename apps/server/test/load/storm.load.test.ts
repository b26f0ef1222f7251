import { expect, it } from "vitest";
import { onRealPostgres } from "../support/test-db";
import { defineStormSuite } from "./storm-suite";

/** The full storm of issue 11 (`npm run test:load`); a smaller one runs in `npm test` (storm.integration.test.ts). */
defineStormSuite("full storm", { claimClients: 200, slots: 10, logins: 100, claimMs: 30_000, loginMs: 60_000, rssGrowthMb: 200 });

// On PGlite there is one connection and no server to storm: asking for the load run without
// PostgreSQL is a mistake, so it fails instead of passing quietly.
it.skipIf(onRealPostgres())("npm run test:load needs real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres(), "set TEST_DATABASE_URL to run the load tests").toBe(true);
});
