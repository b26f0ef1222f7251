import { readFileSync } from "node:fs";
import path from "node:path";
import { migrationsFolder, type DatabaseHandle } from "@elo/db";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openAppDatabase } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";

/**
 * Several server processes starting at once on a fresh database (two compose replicas, a rolling
 * start) each migrate at start: the migration lock (decision 135) makes them take turns, so every
 * start-up succeeds and each migration is applied once. Real PostgreSQL only: PGlite is one process.
 */
const templateUrl = inject("pgTemplateUrl");
const STARTS = 4;

let admin: ReturnType<typeof postgres>;
let url: string;
let name: string;
beforeAll(async () => {
  if (!templateUrl) return;
  const base = new URL(templateUrl);
  name = `elo_mig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  admin = postgres(templateUrl.replace(base.pathname, "/postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  url = templateUrl.replace(base.pathname, `/${name}`);
});
afterAll(async () => {
  if (!templateUrl) return;
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe.skipIf(!templateUrl)("processes starting together on an empty database (needs TEST_DATABASE_URL)", () => {
  it("all start, and every migration is applied exactly once", async () => {
    const config = loadConfig({ NODE_ENV: "production", DATABASE_URL: url, DATABASE_POOL_MAX: "2" });
    const starts = await Promise.allSettled(Array.from({ length: STARTS }, () => openAppDatabase(config)));
    const handles = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    await Promise.all(handles.map((h: DatabaseHandle) => h.close()));
    expect(starts.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);

    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const applied = await sql<{ created_at: string }[]>`select created_at from drizzle.__drizzle_migrations order by created_at`;
      expect(applied.map((r) => Number(r.created_at))).toEqual(journal.entries.map((e) => e.when));
      // Reference data loaded by several processes at once is not duplicated either.
      const [states] = await sql<{ n: number }[]>`select count(*)::int as n from states`;
      expect(states?.n).toBe(27);
      // No process is left holding the lock.
      const [locks] = await sql<{ held: number }[]>`select count(*)::int as held from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = current_database()`;
      expect(locks?.held).toBe(0);
    } finally {
      await sql.end();
    }
  });
});
