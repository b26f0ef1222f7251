import path from "node:path";
import { perUnit, withCpu } from "../lib/cpu";
import type { BenchSession } from "../lib/fixtures";
import { clientIp, load, type HttpResult } from "../lib/http";
import { pgbench, pgbenchScript, type PgbenchResult } from "../lib/pgbench";
import { median, passes, round } from "../lib/stats";
import { passSeconds, sessionCookie, type MeasureContext } from "./context";

/**
 * Issue 31 (decision 170): a filtered and searched first page (niche Idiomas + fee after discount
 * up to R$ 400 + the search "ingles"), the app at 10 clients against the same statement in pgbench
 * -c10; and the facet counts' own statement (what `facets: true` adds) at one client, its latency.
 */
export async function measureMarketplaceFiltered(ctx: MeasureContext, sessions: BenchSession[]) {
  const probe = sessions[0]!;
  const first = (await ctx.capture.record(probe.userId, (c) => c.marketplace.list({ facets: true }))).result;
  const idiomas = first.facets?.categories.find((c) => c.name === "Idiomas")?.id;
  if (idiomas === undefined) throw new Error("no Idiomas niche in the generated world");
  const filters = { category: idiomas, maxFee: 400, q: "ingles" };
  const page = await ctx.capture.record(probe.userId, (c) => c.marketplace.list(filters));
  const withFacets = await ctx.capture.record(probe.userId, (c) => c.marketplace.list({ ...filters, facets: true }));
  // The load asks for every parent's page: what those pages hold, over a sample (the probe's alone can be empty).
  const sample = sessions.slice(0, 50);
  const cardCounts: number[] = [];
  for (const s of sample) cardCounts.push((await ctx.capture.record(s.userId, (c) => c.marketplace.list(filters))).result.items.length);
  const pageSql = new Set(page.statements.map((s) => s.query));
  const facetStatements = withFacets.statements.filter((s) => !pageSql.has(s.query));
  const script = (name: string, statements: typeof page.statements) =>
    pgbenchScript({
      file: path.join(ctx.workDir, name),
      preamble: [`\\set i random(1, ${sessions.length})`],
      lookupSelect: ["user_id as uid"],
      lookupFrom: "from bench_market_parents where i = :i",
      variables: { uid: probe.userId },
      statements,
    });
  script("marketplace-filtered.sql", page.statements);
  script("marketplace-facets.sql", facetStatements);

  let n = 0;
  const requests = [
    {
      method: "GET",
      path: `/trpc/marketplace.list?input=${encodeURIComponent(JSON.stringify({ json: filters }))}`,
      setupRequest: (req: object) => {
        n++;
        return { ...req, headers: { cookie: sessionCookie(sessions[n % sessions.length]!.token), "x-forwarded-for": clientIp(n) } };
      },
    },
  ];
  const runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
    const seconds = passSeconds(ctx, warmup);
    const { result: app, cpuMs, systemMs } = await withCpu(ctx.server.probe, (): Promise<HttpResult> => load({ url: ctx.server.url, connections: 10, duration: seconds, requests }));
    const cpu = perUnit(cpuMs, app.ok);
    const sql: PgbenchResult = await pgbench({ url: ctx.databaseUrl, script: path.join(ctx.workDir, "marketplace-filtered.sql"), clients: 10, seconds });
    const facets: PgbenchResult = await pgbench({ url: ctx.databaseUrl, script: path.join(ctx.workDir, "marketplace-facets.sql"), clients: 1, seconds, threads: 1 });
    ctx.log(
      `    filtered pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${round(app.rps, 1)} req/s (p50 ${app.p50} ms, p99 ${app.p99} ms, non-2xx ${app.non2xx}, CPU ${cpu} ms/page, of which system ${perUnit(systemMs, app.ok)}) | pgbench ${round(sql.tps, 1)} tps | facets ${round(facets.latencyAvgMs, 2)} ms (c1)`,
    );
    return { app, sql, facets, cpu };
  });
  return {
    filters,
    ratioPasses: runs.map((r) => r.app.rps / r.sql.tps),
    p99Passes: runs.map((r) => r.app.p99),
    /** The server process's CPU (user + system) per 2xx filtered page (decision 212's verdict). */
    cpuPasses: runs.map((r) => r.cpu),
    p50Passes: runs.map((r) => r.app.p50),
    facetMsPasses: runs.map((r) => r.facets.latencyAvgMs),
    p50Ms: median(runs.map((r) => r.app.p50)),
    appRps: round(median(runs.map((r) => r.app.rps)), 1),
    pgbenchTps: round(median(runs.map((r) => r.sql.tps)), 1),
    non2xx: runs.reduce((a, r) => a + r.app.non2xx + r.app.errors, 0),
    /** Cards per filtered page over the first parents of the load: median (min-max) and how many parents. */
    cards: `${median(cardCounts)} (${Math.min(...cardCounts)}-${Math.max(...cardCounts)}) over ${sample.length} parents`,
    pageStatements: page.statements.length,
    facetStatements: facetStatements.length,
  };
}
