import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase, pgliteExtensions, type DatabaseHandle } from "@elo/db";
import postgres from "postgres";
import { inject } from "vitest";

/** A fresh, migrated and seeded database for one test file (copied from the run's template). */
export async function freshDatabase(opts: { poolMax?: number } = {}): Promise<DatabaseHandle & { url: string | null }> {
  const templateUrl = inject("pgTemplateUrl");
  if (templateUrl) {
    const template = new URL(templateUrl);
    const name = `elo_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = postgres(templateUrl.replace(template.pathname, "/postgres"), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${template.pathname.slice(1)}`);
    const url = templateUrl.replace(template.pathname, `/${name}`);
    const handle = await openDatabase({ url, poolMax: opts.poolMax ?? 10 });
    return {
      ...handle,
      url,
      async close() {
        await handle.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dump = inject("pgliteDump");
  if (!dump) throw new Error("global setup did not prepare a database");
  const pg = await PGlite.create({ loadDataDir: new Blob([readFileSync(dump)]), extensions: pgliteExtensions });
  return { ...(await openDatabase({ pglite: pg })), url: null };
}

/** True when the tests run on real PostgreSQL (concurrency tests need it). */
export const onRealPostgres = () => inject("pgTemplateUrl") !== null;
