import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/processes";
import { floorDetail } from "./lib/floor-passes";
import { median, round } from "./lib/stats";
import { figure, loadNow, markdownTable, printTable, withLoad, type Figure } from "./lib/report";
import { openWorld, type BenchRun } from "./lib/world";
import { measureClaims } from "./measures/claims";
import { measureFirstLoad } from "./measures/firstload";
import { measureFramework } from "./measures/framework";
import { measureLogin } from "./measures/login";
import { measureMarketplace } from "./measures/marketplace";
import { measureMarketplaceFiltered } from "./measures/marketplace-filtered";
import { measureLighthouse } from "./measures/lighthouse";
import { firstVisitPages, measurePublicPages } from "./measures/public-pages";
import { measureTwoProcesses } from "./measures/two-processes";
import { measureWebhooks } from "./measures/webhooks";
import { FULL_SCALE, type ScaleOptions } from "./scale/options";

const ms = (v: number) => `${Math.round(v * 10) / 10} ms`;
const cpuMs = (v: number) => `${Math.round(v * 1000) / 1000} ms`;

/**
 * The six figures of `npm run bench`: each printed as the median of its measured passes with their
 * min, max and spread, "unstable" past a 25% spread, and the load average before and after it
 * (decision 112). Writes bench/results.json and bench/results.md (the table for docs/performance.md).
 */
export async function runFigures(opts: BenchRun & { scale: ScaleOptions; only: Set<string>; claimParents: number }) {
  const { log, elapsed, scale, only } = opts;
  log(`\n[${elapsed()}] Generating ${scale.schools} schools, ${scale.parents} parents${scale.schools < FULL_SCALE.schools ? " (reduced scale)" : ""}...`);
  // Login parents only when the login figure runs: at a reduced scale they would leave the claims none.
  const world = await openWorld({ ...opts, loginParents: only.has("login") ? 3000 : 0 });
  try {
    const { ctx } = world;
    const results: Record<string, unknown> = {};
    const figures: Figure[] = [];
    if (only.has("marketplace")) {
      log(`\n[${elapsed()}] 1. Marketplace (10 concurrent)`);
      const { result: r, load } = await withLoad(() => measureMarketplace(ctx, world.marketSessions));
      results.marketplace = { ...r, load };
      const detail = `${r.appRps} vs ${r.pgbenchTps}/s (medians)${r.non2xx ? `; ${r.non2xx} non-2xx` : ""}${r.pgbenchFailed ? `; ${r.pgbenchFailed} pgbench transactions failed or clients aborted` : ""}; ${floorDetail(r.floor, "page")}`;
      figures.push(figure({ name: "1. marketplace.list ÷ pgbench (c10)", values: r.ratioPasses, goal: "≥ 0.6", meets: (v) => v >= 0.6, detail, load }));
      figures.push(figure({ name: "   marketplace CPU per page", values: r.cpuPasses, format: cpuMs, goal: "≤ 0.7 ms", meets: (v) => v <= 0.7, detail: "server process, user + system ÷ 2xx answers", load }));
      figures.push(figure({ name: "   marketplace p99 (c10)", values: r.p99Passes, format: ms, goal: "< 50 ms", meets: (v) => v < 50, detail: `p50 ${r.p50Ms} ms; pages of 24 of ${r.averageItems} cards/parent`, load }));
    }
    if (only.has("filtered")) {
      log(`\n[${elapsed()}] 1b. Marketplace filtered and searched (10 concurrent), facet counts (1 client)`);
      const { result: r, load } = await withLoad(() => measureMarketplaceFiltered(ctx, world.marketSessions));
      results.marketplaceFiltered = { ...r, load };
      const detail = `${r.appRps} vs ${r.pgbenchTps}/s (medians); ${JSON.stringify(r.filters)}, cards per page ${r.cards}; server CPU ${cpuMs(median(r.cpuPasses))}/page (median)${r.non2xx ? `; ${r.non2xx} non-2xx` : ""}`;
      figures.push(figure({ name: "1b. filtered page ÷ pgbench (c10)", values: r.ratioPasses, goal: "≥ 0.6", meets: (v) => v >= 0.6, detail, load }));
      figures.push(figure({ name: "    filtered page p99 (c10)", values: r.p99Passes, format: ms, goal: "< 50 ms", meets: (v) => v < 50, detail: `p50 ${r.p50Ms} ms`, load }));
      figures.push(
        figure({
          name: "    facet counts statement (c1)",
          values: r.facetMsPasses,
          format: ms,
          goal: "< 5 ms, 1 statement",
          meets: (v) => v < 5 && r.facetStatements === 1,
          detail: `${r.facetStatements} extra statement(s) with facets: true`,
          load,
        }),
      );
    }
    if (only.has("claims")) {
      log(`\n[${elapsed()}] 2. Claims (50 concurrent parents)`);
      const fx = await world.claimFixture(opts.claimParents);
      const { result: r, load } = await withLoad(() => measureClaims(ctx, fx));
      results.claims = { ...r, load };
      const dry = r.ranDry ? `the claim fixture ran dry (app ${r.left.app.handedOut}/${r.left.app.pairs}, pgbench ${r.left.pgbench.handedOut}/${r.left.pgbench.pairs} pairs handed out): raise --claim-parents` : undefined;
      const extras = [r.appNon2xx ? `${r.appNon2xx} non-2xx` : "", r.pgbenchWithoutVoucher ? `${r.pgbenchWithoutVoucher} pgbench transactions without a voucher` : ""].filter(Boolean).join("; ");
      figures.push(
        figure({
          name: "2. claim.create ÷ pgbench (c50), vouchers/s",
          values: r.ratioPasses,
          goal: "≥ 0.45",
          meets: (v) => v >= 0.45,
          detail: `${r.appClaimsPerSecond} vs ${r.pgbenchClaimsPerSecond} vouchers/s (medians)${extras ? `; ${extras}` : ""}; pairs left app ${r.left.app.pairs - r.left.app.handedOut}, pgbench ${r.left.pgbench.pairs - r.left.pgbench.handedOut}; ${floorDetail(r.floor, "claim")}`,
          load,
          voidBecause: dry,
        }),
      );
      figures.push(figure({ name: "   claim CPU per voucher", values: r.cpuPasses, format: cpuMs, goal: "≤ 1 ms", meets: (v) => v <= 1, detail: "server process, user + system ÷ vouchers committed", load, voidBecause: dry }));
      figures.push(
        figure({
          name: "   zero oversell",
          values: [r.zeroOversell ? 1 : 0],
          format: (v) => (v ? "yes" : "NO"),
          goal: "yes",
          meets: (v) => v === 1,
          detail: `race ${r.race.succeeded}/${r.race.slots} slots; vouchers ${r.ledger.vouchers} = slots ${r.ledger.consumed}; fewest slots left on a benefit ${r.left.slotsLeftMin}`,
          load,
        }),
      );
    }
    if (only.has("framework")) {
      log(`\n[${elapsed()}] 3. Framework tax (-c100 -p10)`);
      const { result: r, load } = await withLoad(() => measureFramework(ctx));
      results.framework = { ...r, load };
      figures.push(figure({ name: "3. trivial procedure ÷ bare Fastify", values: r.ratioPasses, goal: "≥ 0.2", meets: (v) => v >= 0.2, detail: `${r.appRps} vs ${r.bareRps} req/s (medians); tRPC alone ${r.trpcOnlyRatio}`, load }));
      const c = r.cpuMsPerRequest;
      figures.push(figure({ name: "   trivial CPU ÷ tRPC alone's CPU", values: r.cpuVsTrpcPasses, goal: "≤ 1.15", meets: (v) => v <= 1.15, detail: `${c.app} vs ${c.trpcOnly} ms/req (bare Fastify ${c.bare}), medians`, load }));
    }
    const hasLogin = only.has("login") && (await fetch(`${ctx.server.url}/trpc/auth.login`, { method: "POST", headers: { origin: ctx.server.url, "content-type": "application/json" }, body: "{}" })).status !== 404;
    if (only.has("login") && !hasLogin) log(`\n[${elapsed()}] 4. Login: not measured, this build has no auth.login procedure`);
    if (hasLogin) {
      log(`\n[${elapsed()}] 4. Login`);
      const { result: r, load } = await withLoad(() => measureLogin(ctx, world.loginUsers));
      results.login = { ...r, load };
      figures.push(figure({ name: "4. login p50 ÷ argon2 verify p50", values: r.ratioPasses, goal: "≤ 1.15", meets: (v) => v <= 1.15, detail: `${r.loginP50Ms} vs ${r.argon2P50Ms} ms (medians)`, load }));
      figures.push(figure({ name: "   login CPU outside argon2", values: r.cpuOutsideArgonPasses, format: cpuMs, goal: "≤ 1 ms", meets: (v) => v <= 1, detail: `main thread's CPU per login, one at a time, beyond the idle server's ${r.idleMainMsPerSecond} ms/s (${round(median(r.rawCpuOutsideArgonPasses), 3)} ms with it); in the 50-client storm ${round(median(r.stormMainCpuPasses), 3)} ms, and the process's minus one verification's (${r.argon2CpuMs} ms) ${round(median(r.cpuBeyondVerificationPasses), 3)} ms`, load }));
      figures.push(
        figure({
          name: "   event loop p99, 50-client storm",
          values: r.storm.eventLoopP99Passes,
          format: ms,
          goal: "< 10 ms",
          meets: (v) => v < 10,
          detail: `${r.storm.loginsPerSecond} logins/s, max ${r.storm.eventLoopMaxMs} ms`,
          load,
          voidBecause: r.storm.passesWithoutLogins ? `no login completed in ${r.storm.passesWithoutLogins} storm pass(es): lengthen --seconds` : undefined,
        }),
      );
    }
    // Measured while the server runs, printed after figure 5 to keep the table in order.
    const later: Figure[] = [];
    if (only.has("twoprocesses")) {
      log(`\n[${elapsed()}] 6. Marketplace on two server processes against one (20 concurrent)`);
      const { result: r, load } = await withLoad(() => measureTwoProcesses(ctx, world.marketSessions));
      results.twoProcesses = { ...r, load };
      const detail = `${r.twoRps} vs ${r.oneRps} req/s (medians), ${r.cores} cores shared by the servers, PostgreSQL and the load generator${r.non2xx ? `; ${r.non2xx} non-2xx` : ""}`;
      later.push(figure({ name: "6. marketplace 2 processes ÷ 1 (c20)", values: r.ratioPasses, goal: "≥ 0.95", meets: (v) => v >= 0.95, detail, load }));
    }
    if (only.has("publicpages")) {
      log(`\n[${elapsed()}] 8. Public pages: a cached school page ÷ bare Fastify (c10), the largest city uncached, the sitemap`);
      const { result: r, load } = await withLoad(() => measurePublicPages(ctx));
      results.publicPages = { ...r, load };
      later.push(figure({ name: "8. cached school page ÷ bare Fastify, same bytes (c10)", values: r.cachedRatioPasses, goal: "≥ 0.5", meets: (v) => v >= 0.5, detail: `${r.cachedAppRps} vs ${r.cachedBareRps} req/s (medians)${r.appNon2xx ? `; ${r.appNon2xx} non-2xx` : ""}`, load }));
      later.push(figure({ name: "8b. largest city page uncached render p99", values: [r.uncachedCity.p99Ms], format: ms, goal: "< 50 ms", meets: (v) => v < 50, detail: `p50 ${r.uncachedCity.p50Ms} ms; ${r.city.path}, ${r.city.schools} schools, ${Math.round(r.city.gzipBytes / 1024)} KB gzip`, load }));
      later.push(figure({ name: "8c. school page HTML + CSS gzip", values: [r.school.gzipKb], format: (v) => `${v} KB`, goal: "≤ 30 KB", meets: (v) => v <= 30, detail: `${r.school.bytes} bytes before gzip (no passes)`, load }));
      later.push(figure({ name: "8d. sitemap fetched whole", values: [r.sitemap.ms], format: ms, goal: "< 1000 ms, all 200", meets: (v) => v < 1000 && r.sitemap.non200 === 0, detail: `${r.sitemap.files} files, ${r.sitemap.urls} URLs, ${r.sitemap.non200} not 200${r.sitemap.examples.length ? ` (${r.sitemap.examples.join(", ")})` : ""}`, load }));
    }

    if (only.has("lighthouse")) {
      log(`\n[${elapsed()}] 9. First visit on a phone: Lighthouse 12 mobile, each page against its static twin`);
      const { result: pages, load } = await withLoad(async () => measureLighthouse(ctx, await firstVisitPages(ctx)));
      results.lighthouse = { pages, load };
      for (const p of pages) {
        const runs = `${p.app.length} alternating runs each`;
        later.push(figure({ name: `9. ${p.page}: LCP ÷ static twin`, values: [p.lcpRatio], goal: "≤ 1.15", meets: (v) => v <= 1.15, detail: `${p.path}: LCP ${p.appLcpMs} vs ${p.twinLcpMs} ms (medians of ${runs})`, load }));
        later.push(figure({ name: `9. ${p.page}: performance`, values: [p.performance], goal: "≥ 95", meets: (v) => v >= 95, detail: `twin ${p.twinPerformance}; TBT ${p.tbtMs} ms (medians)`, load }));
        later.push(figure({ name: `9. ${p.page}: CLS`, values: [p.cls], format: (v) => String(v), goal: "≤ 0.02", meets: (v) => v <= 0.02, detail: "median", load }));
      }
    }

    await world.stopServer();

    // The world's production server is stopped first: its sender would refuse (SSRF) the local receiver.
    if (only.has("webhooks")) {
      log(`\n[${elapsed()}] 7. Webhooks: events delivered/s by two processes ÷ a bare HTTP client, and commit→delivery lag`);
      const { result: r, load } = await withLoad(() => measureWebhooks(ctx));
      results.webhooks = { ...r, load };
      later.push(figure({ name: "7. webhooks delivered/s (2 processes) ÷ bare client", values: r.ratioPasses, goal: "≥ 0.5", meets: (v) => v >= 0.5, detail: `${r.webhookRate} vs ${r.bareRate} per s (medians), first to last arrival; the first came ${r.pickupMs} ms after the commit`, load }));
      later.push(figure({ name: "7b. webhook lag commit→delivery p99", values: [r.lagP99], goal: "< 2000 ms", meets: (v) => v < 2000, detail: `p50 ${r.lagP50} ms, ${r.events} events at ${r.lagLoad}/s`, load }));
    }
    if (only.has("firstload")) {
      const { result: r, load } = await withLoad(async () => measureFirstLoad());
      results.firstLoad = r;
      for (const [route, v] of Object.entries(r.routes)) {
        figures.push(figure({ name: `5. first load ${route} ÷ 170 KB`, values: [v.ratio], goal: "≤ 1.0", meets: (x) => x <= 1, detail: `${v.gzipKb} KB gzip, ${v.files} files (from the build: no passes)`, load }));
      }
    }

    figures.push(...later);

    const report = {
      date: new Date().toISOString(),
      machine: { ...opts.machine, loadAverageAtEnd: loadNow() },
      settings: opts.settings,
      generation: world.generation,
      results,
      figures,
      totalSeconds: Math.round((performance.now() - opts.started) / 1000),
    };
    writeFileSync(path.join(ROOT, "bench/results.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(ROOT, "bench/results.md"), markdownTable(figures));
    log(`\n[${elapsed()}] Done. Load average now ${report.machine.loadAverageAtEnd.join(" / ")}.`);
    printTable(figures, log);
    log(`Written: bench/results.json, bench/results.md (the table for docs/performance.md)`);
    if (readFileSync(world.logFile, "utf8").includes('"level":50')) log("Note: the server logged errors; see its log.");
  } finally {
    await world.close();
  }
}
