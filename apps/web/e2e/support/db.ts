import { openDatabase, type DatabaseHandle } from "@elo/db";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser";
import { e2eServer } from "./file-server";

/** A connection to the e2e server's own database, for seeding rows a scenario needs. */
export function e2eDatabase(): Promise<DatabaseHandle> {
  return openDatabase({ url: e2eServer().databaseUrl, poolMax: 2 });
}

/**
 * Chromium and a connection to the e2e database for one file's scenarios: opened before them,
 * closed after them. `receive` hands both to the file's variables.
 */
export function withBrowserAndDatabase(receive: (opened: { browser: Browser; db: DatabaseHandle }) => void) {
  let browser: Browser | undefined;
  let db: DatabaseHandle | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    db = await e2eDatabase();
    receive({ browser, db });
  });
  afterAll(async () => {
    await db?.close();
    await browser?.close();
  });
}
