import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { floorFromStats, normalizeSql, replayCount } from "../lib/floor-from-stats";
import { floorDetail, floorPasses } from "../lib/floor-passes";
import { pgbenchScript, type CapturedStatement } from "../lib/pgbench";
import { addStats, isBookkeeping, type StatementStats, type StatStatements } from "../lib/stat-statements";

const SESSION = `
    select s.user_id, s.expires_at, (select array_agg(r.role::text) from user_roles r where r.user_id = s.user_id) as roles
    from sessions s
    where s.id = $1`;
const PAGE = `select x from offers i where i.user_id = $1 and i.status in ('waiting', 'offered') and i.gold = true limit 24 -- first page`;
// pg_stat_statements' text of the same statements: literals become $n after the client's parameters.
const PAGE_PGSS = `select x from offers i where i.user_id = $1 and i.status in ($2, $3) and i.gold = $4 limit $5 -- first page`;

const stat = (queryid: string, query: string, calls: number, totalMs: number, rows = calls): StatementStats => ({ queryid, query, calls, totalMs, meanMs: totalMs / calls, rows });
const captured = (query: string, ...params: unknown[]): CapturedStatement => ({ query, params });

describe("a statement's shape, the same from the client and from pg_stat_statements", () => {
  it("leaves out values, comments, case and spacing", () => {
    expect(normalizeSql(PAGE)).toBe(normalizeSql(PAGE_PGSS));
    expect(normalizeSql("SELECT  a\n FROM t WHERE b = -1 AND c = E'it''s' /* why */")).toBe(normalizeSql("select a from t where b = $1 and c = $2"));
    expect(normalizeSql("select * from t where x = $1::date and k[1] = null")).toBe("select*from t where x=?::date and k[?]=?");
    expect(normalizeSql("BEGIN")).toBe(normalizeSql("begin;"));
  });

  it("keeps what tells statements apart: names, digits inside names, quoted identifiers", () => {
    expect(normalizeSql(`select sha256(a) from "T1"`)).toBe(`select sha256(a)from "t1"`);
    expect(normalizeSql("select a from t where b = $1")).not.toBe(normalizeSql("select a from t where c = $1"));
  });
});

describe("calls per request and the script's mix (decision 210)", () => {
  it("rounds calls per request to the nearest integer", () => {
    expect([0.2, 0.49, 0.5, 0.98, 1.02, 1.5, 2.4].map(replayCount)).toEqual([0, 0, 1, 1, 1, 2, 2]);
  });

  it("replays what PostgreSQL saw per request, in the request's order, with the captured values", () => {
    const session = captured(SESSION, "abc");
    const page = captured(PAGE, "u1");
    const floor = floorFromStats({
      requests: 1000,
      captured: [session, page],
      stats: [stat("2", PAGE_PGSS, 1002, 501), stat("1", SESSION, 1000, 50), stat("9", "update jobs set run_at = $1 where name = $2", 3, 449)],
    });
    expect(floor.script).toEqual([session, page]);
    const [s, p, job] = floor.statements;
    expect(s!.query).toBe(SESSION);
    expect(s!.callsPerRequest).toBe(1);
    expect(s!.msPerRequest).toBeCloseTo(0.05, 6);
    expect(p!.callsPerRequest).toBeCloseTo(1.002, 6);
    expect(p!.replayed).toBe(1);
    expect(p!.note).toBeUndefined();
    // Sent by the server's own jobs, not the captured request: no values, so left out and counted.
    expect(job!.replayed).toBe(0);
    expect(job!.note).toMatch(/did not send it/);
    expect(job!.shareOfTime).toBeCloseTo(0.449, 6);
    expect(floor.pgMsPerRequest).toBeCloseTo((501 + 50 + 449) / 1000, 6);
    expect(floor.replayedMsPerRequest).toBeCloseTo(50 / 1000 + 501 / 1002, 6);
  });

  it("repeats a statement seen more often than the captured request sent it, and drops one below half a call", () => {
    const a = captured("select a from t where id = $1", 1);
    const b = captured("select b from t where id = $1", 2);
    const c = captured("select c from t where id = $1", 3);
    const floor = floorFromStats({
      requests: 100,
      captured: [a, b, c],
      stats: [stat("a", "select a from t where id = $1", 200, 20), stat("b", "select b from t where id = $1", 30, 3), stat("c", "select c from t where id = $1", 150, 15)],
    });
    // a: 2.0 per request (captured once: repeated); b: 0.3 (left out); c: 1.5 (nearest integer, 2).
    expect(floor.script).toEqual([a, a, c, c]);
    const byQuery = Object.fromEntries(floor.statements.map((s) => [s.query, s]));
    expect(byQuery["select b from t where id = $1"]!.note).toMatch(/rounds to 0/);
    expect(byQuery["select c from t where id = $1"]!.note).toMatch(/replayed 2× for 1.5 calls per request/);
  });

  it("counts BEGIN and COMMIT as statements of the request, replayed where the request sent them", () => {
    const begin = captured("begin");
    const write = captured("update t set n = n - 1 where id = $1", 7);
    const commit = captured("commit");
    const floor = floorFromStats({
      requests: 10,
      captured: [begin, write, commit],
      stats: [stat("1", "BEGIN", 10, 0.1), stat("2", "update t set n = n - $2 where id = $1", 10, 2), stat("3", "COMMIT", 10, 1)],
    });
    expect(floor.script).toEqual([begin, write, commit]);
  });

  it("counts rows of one shape together (one per user, query id or top-level flag)", () => {
    const floor = floorFromStats({ requests: 10, captured: [], stats: [stat("1", "select 1", 5, 1), stat("2", "SELECT 2", 5, 3)] });
    expect(floor.statements).toHaveLength(1);
    expect(floor.statements[0]!.callsPerRequest).toBe(1);
    expect(floor.statements[0]!.meanMs).toBeCloseTo(0.4, 6);
  });

  it("refuses a pass that answered no request", () => {
    expect(() => floorFromStats({ requests: 0, captured: [], stats: [] })).toThrow(/no request answered/);
  });
});

describe("pg_stat_statements' rows", () => {
  it("leaves out the bench's own statements", () => {
    expect(isBookkeeping("/* bench */ select count(*)::int as n from discount_transactions")).toBe(true);
    expect(isBookkeeping("select pg_stat_statements_reset($1, $2, $3)")).toBe(true);
    expect(isBookkeeping("select user_id as uid from bench_market_parents where i = $1")).toBe(true);
    expect(isBookkeeping(SESSION)).toBe(false);
  });

  it("adds passes up by query id", () => {
    const sum = addStats([[stat("1", "q", 10, 5)], [stat("1", "q", 30, 5), stat("2", "r", 1, 1)]]);
    expect(sum.find((s) => s.queryid === "1")).toMatchObject({ calls: 40, totalMs: 10, meanMs: 0.25 });
    expect(sum).toHaveLength(2);
  });
});

describe("pgbench's script from the captured statements", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "elo-floor-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names the per-transaction values, the session's id included, and base64-encodes the constants (last parameter first)", () => {
    const script = pgbenchScript({
      file: path.join(dir, "t.sql"),
      preamble: ["\\set i random(1, 300)"],
      lookupSelect: ["user_id as uid", "session_id as sess"],
      lookupFrom: "from bench_market_parents where i = :i",
      variables: { uid: "u-1", sess: "f00d" },
      statements: [captured(SESSION, "f00d"), captured(PAGE, "u-1"), captured("select $1::date, $2", "2026-11-28", "a:b")],
    });
    const lines = script.split("\n");
    expect(lines[0]).toBe("\\set i random(1, 300)");
    expect(lines[1]).toMatch(/^select user_id as uid, session_id as sess, convert_from\(decode\('YTpi', 'base64'\), 'UTF8'\) as c1, convert_from\(decode\('MjAyNi0xMS0yOA==', 'base64'\), 'UTF8'\) as c2 from bench_market_parents where i = :i \\gset$/);
    expect(lines[2]).toMatch(/where s\.id = :sess;$/);
    expect(lines[3]).toBe("select x from offers i where i.user_id = :uid and i.status in ('waiting', 'offered') and i.gold = true limit 24;");
    expect(lines[4]).toBe("select :c2::date, :c1;");
  });

  it("keeps a statement's row for the next ones (\\gset) and sends an expression for a value that may be missing", () => {
    const script = pgbenchScript({
      file: path.join(dir, "u.sql"),
      preamble: [],
      lookupSelect: ["user_id as uid"],
      lookupFrom: "from bench_claim_pairs where n = 1",
      variables: { uid: "u-1", claim_outbox_id: "o-9" },
      expressions: { claim_outbox_id: "nullif(:claim_outbox_id, '')::uuid" },
      statements: [{ ...captured("with mail as (insert into email_outbox (user_id) values ($1) returning id) select (select id from mail) as outbox_id", "u-1"), gset: "claim_" }, captured("update email_outbox set subject = $1 where id = $2", "s", "o-9")],
    });
    const lines = script.split("\n");
    expect(lines[1]).toBe("with mail as (insert into email_outbox (user_id) values (:uid) returning id) select (select id from mail) as outbox_id \\gset claim_");
    expect(lines[2]).toBe("update email_outbox set subject = :c1 where id = nullif(:claim_outbox_id, '')::uuid;");
  });
});

describe("a figure's floor over its passes", () => {
  it("builds the script from the first pass and reports the measured ones, matching statements by shape", async () => {
    const page = captured("select x from t where id = $1", "u");
    const readings = [
      [stat("1", "select x from t where id = $1", 10, 5)],
      [stat("1", "select x\n  from t where id = $1", 20, 4)],
      [stat("1", "select x  from t\nwhere id = $1", 30, 6)],
    ];
    const fake = { reset: async () => {}, read: async () => readings.shift()!, close: async () => {} } as unknown as StatStatements;
    const passes = floorPasses(fake, [page], () => {});
    const first = await passes.read(10, 0, true);
    expect(first.script).toEqual([page]);
    await passes.read(20, 1, false);
    await passes.read(30, 2, false);
    const report = passes.report();
    if (report.source !== "pg_stat_statements") throw new Error("expected the pg_stat_statements floor");
    expect(report.requests).toBe(50);
    expect(report.scriptFrom).toBe("pass 1 (warm-up), 10 requests");
    expect(report.statements).toHaveLength(1);
    expect(report.statements[0]).toMatchObject({ calls: 50, callsPerRequest: 1, meanMs: 0.2, replayed: 1 });
    expect(report.replayedPerTransaction).toBe(1);
    expect(report.leftOut.statements).toBe(0);
    expect(floorDetail(report, "page")).toBe("PostgreSQL 0.2 ms/page in 1 statements/page (pg_stat_statements), pgbench replays 1 = 0.2 ms");
  });
});
