import { expect, it } from "vitest";
import { onRealPostgres } from "../support/test-db";
import { defineStormSuite } from "./storm-suite";

/** The CI-sized storm (`npm test`); the full one is storm.load.test.ts (`npm run test:load`). */
defineStormSuite("small storm", { claimClients: 40, slots: 5, logins: 20, claimMs: 15_000, loginMs: 30_000, rssGrowthMb: 150 });

it.skipIf(onRealPostgres())("load storms need real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
