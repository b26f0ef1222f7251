import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateScale } from "../generate-scale";
import { createSqlCapture, type SqlCapture } from "../lib/capture";
import { claimLedger, type ClaimLedger } from "../lib/claim-ledger";
import { freshDatabase } from "../lib/database";
import { floorFromStats } from "../lib/floor-from-stats";
import { claimFixture, type ClaimFixture } from "../lib/fixtures";
import { findPgbench, pgbench } from "../lib/pgbench";
import { openStatStatements, type StatStatements } from "../lib/stat-statements";
import { claimFloorScript, claimRequest } from "../measures/claims";
import { parseScaleArgs } from "../scale/options";

const serverUrl = process.env.TEST_DATABASE_URL;
const hasPgbench = (() => {
  try {
    return Boolean(findPgbench());
  } catch {
    return false;
  }
})();
async function loaded(url: string | undefined) {
  if (!url) return false;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ libs }] = await sql<[{ libs: string }]>`select current_setting('shared_preload_libraries') as libs`;
    return libs.includes("pg_stat_statements");
  } finally {
    await sql.end();
  }
}

// The claim floor from pg_stat_statements (decision 210), on a server that loads it (`npm run bench:pg`,
// then TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres).
describe.skipIf(!hasPgbench || !(await loaded(serverUrl)))("the claim floor from pg_stat_statements", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let sql: Sql;
  let capture: SqlCapture;
  let fx: ClaimFixture;
  let ledger: ClaimLedger;
  let pgss: StatStatements;
  let workDir: string;

  beforeAll(async () => {
    database = await freshDatabase(serverUrl!, `elo_bench_pgss_${process.pid}_${Date.now()}`);
    await generateScale(database.url, parseScaleArgs(["--schools", "300", "--parents", "3000"]), () => {});
    sql = postgres(database.url, { max: 1, onnotice: () => {} });
    fx = await claimFixture(sql, { parents: 2800, benefits: 5, slotsEach: 1000, hotSlots: 1, hotParents: 2 });
    capture = await createSqlCapture(database.url, "http://127.0.0.1:3000");
    ledger = claimLedger(sql, fx);
    pgss = (await openStatStatements(database.url))!;
    workDir = mkdtempSync(path.join(tmpdir(), "elo-bench-pgss-"));
  }, 120_000);

  afterAll(async () => {
    await pgss?.close();
    await capture?.close();
    await sql?.end();
    await database?.drop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("counts a claim's statements over HTTP, session lookup included, and pgbench replays them with a voucher and an e-mail of its own", async () => {
    await pgss.reset();
    const claim = await claimRequest(capture, fx, ledger, sql);
    const stats = await pgss.read();
    expect(stats.some((s) => s.query.includes("/* bench */"))).toBe(false);
    const floor = floorFromStats({ stats, requests: 1, captured: claim.statements });
    const replayed = floor.statements.filter((s) => s.replayed);
    expect(replayed.map((s) => s.callsPerRequest)).toEqual(replayed.map(() => 1));
    expect(replayed.some((s) => /from sessions s/.test(s.query))).toBe(true);
    expect(replayed.some((s) => /insert into discount_transactions/.test(s.query))).toBe(true);

    const file = path.join(workDir, "claim.sql");
    claimFloorScript(file, floor.script, claim.variables);
    expect(readFileSync(file, "utf8")).toMatch(/where s\.id = :sess;/);
    const pending = async () => (await sql<[{ n: number }]>`select count(*)::int as n from email_outbox where subject is null`)[0].n;
    const pass = await ledger.side(() => pgbench({ url: database.url, script: file, clients: 4, threads: 1, seconds: 1 }), (r) => r.connectionMs / 1000);
    expect(pass.result.transactions).toBeGreaterThan(0);
    expect(pass.result.failed + pass.result.aborted).toBe(0);
    expect(pass.vouchers).toBe(pass.result.transactions);
    // Each transaction wrote its voucher's e-mail (the outbox id from its own claim row), none left unwritten.
    expect(await pending()).toBe(0);
  });
});
