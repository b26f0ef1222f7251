import path from "node:path";
import { perUnit, profilePass, withCpu } from "../lib/cpu";
import { capturedFloor, floorPasses } from "../lib/floor-passes";
import { sessionId, type BenchSession } from "../lib/fixtures";
import { clientIp, load } from "../lib/http";
import { pgbench, pgbenchScript, type CapturedStatement, type PgbenchResult } from "../lib/pgbench";
import { median, passes, round } from "../lib/stats";
import { NOT_LOADED, openStatStatements, type StatStatements } from "../lib/stat-statements";
import { passSeconds, sessionCookie, type MeasureContext } from "./context";

/** autocannon's requests: the first marketplace page, each from the next parent's session and address. */
export function marketplaceRequests(sessions: BenchSession[]) {
  let n = 0;
  return [
    {
      method: "GET",
      path: "/trpc/marketplace.list",
      setupRequest: (req: object) => {
        n++;
        return { ...req, headers: { cookie: sessionCookie(sessions[n % sessions.length]!.token), "x-forwarded-for": clientIp(n) } };
      },
    },
  ];
}

/**
 * Figure 1: marketplace.list req/s at 10 concurrent ÷ the same SQL through pgbench -M prepared -c10;
 * p50/p99 of the app. Both sides ask for the first page, the request every visit to /home makes
 * (decision 086); "Carregar mais" asks the same statement with a cursor. With pg_stat_statements
 * loaded (decision 210), pgbench's transaction is what PostgreSQL saw per page during the app's
 * pass (session lookup included), with the values of one page requested over HTTP in-process;
 * without it, the statements of the procedure called in-process (no session lookup).
 */
export async function measureMarketplace(ctx: MeasureContext, sessions: BenchSession[]) {
  const pgss = await openStatStatements(ctx.databaseUrl);
  try {
    return await measure(ctx, sessions, pgss);
  } finally {
    await pgss?.close();
  }
}

async function measure(ctx: MeasureContext, sessions: BenchSession[], pgss: StatStatements | null) {
  const probe = sessions[0]!;
  const file = path.join(ctx.workDir, "marketplace.sql");
  const scriptOf = (statements: CapturedStatement[]) =>
    pgbenchScript({
      file,
      preamble: [`\\set i random(1, ${sessions.length})`],
      lookupSelect: ["user_id as uid", "session_id as sess"],
      lookupFrom: "from bench_market_parents where i = :i",
      variables: { uid: probe.userId, sess: sessionId(probe.token) },
      statements,
    });
  let script: string | null = null;
  let scriptStatements = 0;
  let floor: ReturnType<typeof floorPasses> | null = null;
  if (pgss) {
    const { response, statements } = await ctx.capture.inject({ method: "GET", url: "/trpc/marketplace.list", headers: { cookie: sessionCookie(probe.token), "x-forwarded-for": clientIp(0) } });
    if (response.statusCode !== 200) throw new Error(`the captured marketplace page answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
    floor = floorPasses(pgss, statements, ctx.log);
  } else {
    ctx.log(`    ${NOT_LOADED}`);
    const { statements } = await ctx.capture.record(probe.userId, (c) => c.marketplace.list());
    script = scriptOf(statements);
    scriptStatements = statements.length;
  }
  // How many cards the parents may see in all (every page), for the report.
  let items = 0;
  for (const s of sessions.slice(0, 20)) {
    let cursor: string | null = null;
    do {
      const page = (await ctx.capture.record(s.userId, (c) => c.marketplace.list({ cursor, limit: 100 }))).result;
      items += page.items.length;
      cursor = page.nextCursor;
    } while (cursor);
  }

  const requests = marketplaceRequests(sessions);
  const runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
    const seconds = passSeconds(ctx, warmup);
    await floor?.reset();
    const { result: app, cpuMs, systemMs } = await withCpu(ctx.server.probe, () => load({ url: ctx.server.url, connections: 10, duration: seconds, requests }));
    const cpu = perUnit(cpuMs, app.ok);
    if (floor) {
      const f = await floor.read(app.ok, i, warmup);
      if (script === null) {
        script = scriptOf(f.script);
        scriptStatements = f.script.length;
      }
    }
    const sql: PgbenchResult = await pgbench({ url: ctx.databaseUrl, script: file, clients: 10, seconds });
    ctx.log(
      `    marketplace pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${round(app.rps, 1)} req/s (p50 ${app.p50} ms, p99 ${app.p99} ms, non-2xx ${app.non2xx}, CPU ${cpu} ms/page, of which system ${perUnit(systemMs, app.ok)}) | ` +
        `pgbench ${round(sql.tps, 1)} tps${sql.failed || sql.aborted ? ` (failed ${sql.failed}, aborted clients ${sql.aborted})` : ""}`,
    );
    return { app, sql, cpu };
  });
  if (ctx.profiles !== false) await profilePass(ctx.server.probe, "marketplace-list", ctx.workDir, async () => (await load({ url: ctx.server.url, connections: 10, duration: passSeconds(ctx, true), requests })).ok);
  const appRps = median(runs.map((r) => r.app.rps));
  const sqlTps = median(runs.map((r) => r.sql.tps));
  return {
    ratioPasses: runs.map((r) => r.app.rps / r.sql.tps),
    cpuPasses: runs.map((r) => r.cpu),
    p50Passes: runs.map((r) => r.app.p50),
    p99Passes: runs.map((r) => r.app.p99),
    ratio: round(median(runs.map((r) => r.app.rps / r.sql.tps)), 3),
    appRps: round(appRps, 1),
    pgbenchTps: round(sqlTps, 1),
    pgbenchFailed: runs.reduce((a, r) => a + r.sql.failed + r.sql.aborted, 0),
    p50Ms: median(runs.map((r) => r.app.p50)),
    p99Ms: median(runs.map((r) => r.app.p99)),
    non2xx: runs.reduce((a, r) => a + r.app.non2xx + r.app.errors, 0),
    averageItems: round(items / Math.min(20, sessions.length), 1),
    /** Statements in pgbench's transaction (its lookup of the values not counted). */
    statements: scriptStatements,
    floor: floor ? floor.report() : capturedFloor(),
    script: script ?? "",
  };
}
