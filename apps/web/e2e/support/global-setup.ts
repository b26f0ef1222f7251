import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { e2eAdminUrl, fileCopyPrefix, startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The database (and its files) with the demo world that each scenario file's server copies (decision 229). */
    e2eTemplate: { database: string; dataDir: string };
  }
}

/**
 * Builds the demo world once: the built server (apps/server/dist) started with DEMO=1 over a fresh
 * PostgreSQL database, then stopped. Each scenario file then runs its own server over a copy of
 * that database and of its files (support/server.ts), so files may run at once and never see each
 * other's rows. E2E_DATABASE_URL names the PostgreSQL server to use.
 */
export default async function setup(project: TestProject) {
  const stamp = Date.now();
  const database = `elo_e2e_tpl_${stamp}`;
  const admin = postgres(e2eAdminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${database}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), "elo-e2e-tpl-"));
  const seeding = await startServer({ database, dataDir });
  await seeding.stop();
  // A copy needs the template without connections: the stopped server's backends end a moment later.
  for (let i = 0; i < 100; i++) {
    const [{ n } = { n: 0 }] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = ${database}`;
    if (n === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  project.provide("e2eTemplate", { database, dataDir });

  return async () => {
    // The files drop their own copies; a file killed midway leaves one, dropped here.
    const left = await admin<{ datname: string }[]>`select datname from pg_database where starts_with(datname, ${fileCopyPrefix(database)})`;
    for (const { datname } of left) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
