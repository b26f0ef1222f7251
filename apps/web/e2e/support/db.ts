import { openDatabase, type DatabaseHandle } from "@elo/db";
import { inject } from "vitest";

/** A connection to the e2e server's own database, for seeding rows a scenario needs. */
export function e2eDatabase(): Promise<DatabaseHandle> {
  return openDatabase({ url: inject("e2eDatabaseUrl"), poolMax: 2 });
}
