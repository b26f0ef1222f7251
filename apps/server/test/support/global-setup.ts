import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase, pgliteExtensions, seedReference } from "@elo/db";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** PostgreSQL: the template database every test file copies. */
    pgTemplateUrl: string | null;
    /** PGlite: a dump of a migrated, seeded database every test file loads. */
    pgliteDump: string | null;
  }
}

/** Migrates and seeds once per run; each test file then gets its own copy (see test-db.ts). */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `elo_tpl_${process.pid}_${Date.now()}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const templateUrl = withDatabase(url, name);
    const handle = await openDatabase({ url: templateUrl, poolMax: 2 });
    await handle.migrate();
    await seedReference(handle.db);
    await handle.close();
    project.provide("pgTemplateUrl", templateUrl);
    project.provide("pgliteDump", null);
    return async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const pg = await PGlite.create({ extensions: pgliteExtensions });
  const handle = await openDatabase({ pglite: pg });
  await handle.migrate();
  await seedReference(handle.db);
  const dump = await pg.dumpDataDir("none");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "elo-test-")), "seeded.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  project.provide("pgTemplateUrl", null);
  project.provide("pgliteDump", file);
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
