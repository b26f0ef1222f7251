import path from "node:path";
import type { BenchSession } from "../lib/fixtures";
import { perUnit, profilePass, withCpu } from "../lib/cpu";
import { clientIp, load } from "../lib/http";
import { pgbench, pgbenchScript, type PgbenchResult } from "../lib/pgbench";
import { median, passes, round } from "../lib/stats";
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
 * (decision 086); "Carregar mais" asks the same statement with a cursor.
 */
export async function measureMarketplace(ctx: MeasureContext, sessions: BenchSession[]) {
  const probe = sessions[0]!;
  const { statements } = await ctx.capture.record(probe.userId, (c) => c.marketplace.list());
  const script = pgbenchScript({
    file: path.join(ctx.workDir, "marketplace.sql"),
    preamble: [`\\set i random(1, ${sessions.length})`],
    lookupSelect: ["user_id as uid"],
    lookupFrom: "from bench_market_parents where i = :i",
    variables: { uid: probe.userId },
    statements,
  });
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
    const { result: app, cpuMs, systemMs } = await withCpu(ctx.server.probe, () => load({ url: ctx.server.url, connections: 10, duration: seconds, requests }));
    const sql: PgbenchResult = await pgbench({ url: ctx.databaseUrl, script: path.join(ctx.workDir, "marketplace.sql"), clients: 10, seconds });
    const cpu = perUnit(cpuMs, app.ok);
    ctx.log(`    marketplace pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${round(app.rps, 1)} req/s (p50 ${app.p50} ms, p99 ${app.p99} ms, non-2xx ${app.non2xx}, CPU ${cpu} ms/page, of which system ${perUnit(systemMs, app.ok)}) | pgbench ${round(sql.tps, 1)} tps`);
    return { app, sql, cpu };
  });
  await profilePass(ctx.server.probe, "marketplace-list", ctx.workDir, async () => (await load({ url: ctx.server.url, connections: 10, duration: passSeconds(ctx, true), requests })).ok);
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
    p50Ms: median(runs.map((r) => r.app.p50)),
    p99Ms: median(runs.map((r) => r.app.p99)),
    non2xx: runs.reduce((a, r) => a + r.app.non2xx + r.app.errors, 0),
    averageItems: round(items / Math.min(20, sessions.length), 1),
    statements: statements.length,
    script,
  };
}
