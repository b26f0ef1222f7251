import { readFileSync } from "node:fs";
import path from "node:path";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlCapture } from "../lib/capture";
import type { ClaimLedger } from "../lib/claim-ledger";
import { floorFromStats } from "../lib/floor-from-stats";
import type { ClaimFixture } from "../lib/fixtures";
import { pgbench } from "../lib/pgbench";
import { openStatStatements, type StatStatements } from "../lib/stat-statements";
import { claimFloorScript, claimRequest } from "../measures/claims";
import { hasPgbench, openClaimWorld, serverUrl, type ClaimWorld } from "./claim-world";

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
  let world: ClaimWorld;
  let database: ClaimWorld["database"];
  let sql: Sql;
  let capture: SqlCapture;
  let fx: ClaimFixture;
  let ledger: ClaimLedger;
  let pgss: StatStatements;
  let workDir: string;

  beforeAll(async () => {
    world = await openClaimWorld("pgss");
    ({ database, sql, capture, fx, ledger, workDir } = world);
    pgss = (await openStatStatements(database.url))!;
  }, 120_000);

  afterAll(async () => {
    await pgss?.close();
    await world?.close();
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
