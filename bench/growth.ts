import { writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/processes";
import { loadNow, UNSTABLE_SPREAD, withLoad, type LoadWindow } from "./lib/report";
import { round, spreadOf } from "./lib/stats";
import { openWorld, type BenchRun } from "./lib/world";
import { measureClaims } from "./measures/claims";
import { measureMarketplace } from "./measures/marketplace";
import { measureMarketplaceFiltered } from "./measures/marketplace-filtered";
import { measurePageCost } from "./measures/page-cost";
import { FULL_SCALE, parseScaleArgs } from "./scale/options";

interface GrowthRow {
  factor: number;
  schools: number;
  parents: number;
  generationSeconds: number;
  marketplaceP50: number[];
  marketplaceP99: number[];
  /** Issue 31: the filtered and searched page (niche + fee + text), and the facet statement at one client. */
  filteredP50: number[];
  filteredP99: number[];
  facetMs: number[];
  claimP50: number[];
  /** Issue 30: the server's CPU per page and per voucher (ms). */
  marketplaceCpu: number[];
  claimCpu: number[];
  marketplaceRatio: number;
  claimsRatio: number;
  claimFixtureRanDry: boolean;
  page: Awaited<ReturnType<typeof measurePageCost>>;
  load: LoadWindow;
  seconds: number;
}

/** "median ms (min–max)", marked unstable past a 25% spread, as the figures are (decision 112). */
function passesText(values: number[]) {
  const s = spreadOf(values);
  const text = values.length > 1 ? `${round(s.median, 1)} (${round(s.min, 1)}–${round(s.max, 1)})` : `${round(s.median, 1)}`;
  return s.spread > UNSTABLE_SPREAD && values.length > 1 ? `${text} unstable` : text;
}

/** CPU per unit in ms, three decimals, marked as passesText marks. */
function cpuText(values: number[]) {
  const s = spreadOf(values);
  const text = values.length > 1 ? `${round(s.median, 3)} (${round(s.min, 3)}–${round(s.max, 3)})` : `${round(s.median, 3)}`;
  return s.spread > UNSTABLE_SPREAD && values.length > 1 ? `${text} unstable` : text;
}

function growthTable(rows: GrowthRow[]) {
  const head = [
    "| scale | schools / parents | data | marketplace p50 ms (c10) | marketplace p99 ms (c10) | filtered page p50 / p99 ms (c10) | facet statement ms (c1) | claim p50 ms (c50) | CPU ms per page / per voucher | buffers per page, median (max) | schools in the parent's city, median (max) | offers open to the whole platform | ratios: marketplace / claims | load before → after |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const body = rows.map(
    (r) =>
      `| ${r.factor}× | ${r.schools.toLocaleString("en")} / ${r.parents.toLocaleString("en")} | ${Math.round(r.generationSeconds)} s | ${passesText(r.marketplaceP50)} | ${passesText(r.marketplaceP99)} | ${passesText(r.filteredP50)} / ${passesText(r.filteredP99)} | ${passesText(r.facetMs)} | ${passesText(r.claimP50)} | ${cpuText(r.marketplaceCpu)} / ${cpuText(r.claimCpu)} | ` +
      `${r.page.buffersMedian.toLocaleString("en")} (${r.page.buffersMax.toLocaleString("en")}) | ${r.page.citySchoolsMedian} (${r.page.citySchoolsMax}) | ${r.page.platformOffers.toLocaleString("en")} | ` +
      `${r.marketplaceRatio} / ${r.claimsRatio}${r.claimFixtureRanDry ? " (claim fixture ran dry)" : ""} | ${r.load.before.join("/")} → ${r.load.after.join("/")} |`,
  );
  return [...head, ...body, ""].join("\n");
}

/**
 * `npm run bench -- --scale`: the marketplace's p50/p99, the claim's p50 and the buffers a
 * marketplace page reads, at multiples of the default scale (0.1×, 1×, 5× unless --scales says
 * otherwise; parents in proportion), each on its own fresh database with the same passes as the
 * figures. Writes bench/growth.json and bench/growth.md (the table for docs/performance.md).
 */
export async function runGrowth(opts: BenchRun & { factors: number[]; claimParents: number }) {
  const { log, elapsed } = opts;
  if (opts.factors.some((f) => !(f > 0))) throw new Error("--scales takes positive multiples of the default scale, e.g. 0.1,1,5");
  const rows: GrowthRow[] = [];
  for (const factor of opts.factors) {
    const t0 = performance.now();
    const scale = parseScaleArgs(["--schools", String(Math.round(FULL_SCALE.schools * factor)), "--parents", String(Math.round(FULL_SCALE.parents * factor))]);
    log(`\n[${elapsed()}] ${factor}×: generating ${scale.schools} schools, ${scale.parents} parents...`);
    const world = await openWorld({ ...opts, scale, loginParents: 0 });
    // The profiles under bench/profiles/ are the figures' (npm run bench), not each scale's.
    const ctx = { ...world.ctx, profiles: false };
    try {
      const { result, load } = await withLoad(async () => {
        log(`[${elapsed()}] ${factor}×: marketplace (10 concurrent)`);
        const market = await measureMarketplace(ctx, world.marketSessions);
        const page = await measurePageCost(ctx, world.marketSessions);
        log(`[${elapsed()}] ${factor}×: filtered and searched page (10 concurrent), facet counts (1 client)`);
        const filtered = await measureMarketplaceFiltered(ctx, world.marketSessions);
        log(`    buffers per page: median ${page.buffersMedian}, max ${page.buffersMax}; schools in the parent's city: median ${page.citySchoolsMedian}; offers open to the platform: ${page.platformOffers}`);
        log(`[${elapsed()}] ${factor}×: claims (50 concurrent)`);
        const claims = await measureClaims(ctx, await world.claimFixture(opts.claimParents));
        return { market, page, filtered, claims };
      });
      rows.push({
        factor,
        schools: scale.schools,
        parents: scale.parents,
        generationSeconds: world.generation.totalSeconds,
        marketplaceP50: result.market.p50Passes,
        marketplaceP99: result.market.p99Passes,
        filteredP50: result.filtered.p50Passes,
        filteredP99: result.filtered.p99Passes,
        facetMs: result.filtered.facetMsPasses,
        claimP50: result.claims.p50Passes,
        marketplaceCpu: result.market.cpuPasses,
        claimCpu: result.claims.cpuPasses,
        marketplaceRatio: result.market.ratio,
        claimsRatio: result.claims.ratio,
        claimFixtureRanDry: result.claims.ranDry,
        page: result.page,
        load,
        seconds: Math.round((performance.now() - t0) / 1000),
      });
      log(`[${elapsed()}] ${factor}×: done in ${rows.at(-1)!.seconds} s`);
    } finally {
      await world.close();
    }
  }
  const table = growthTable(rows);
  const report = { date: new Date().toISOString(), machine: { ...opts.machine, loadAverageAtEnd: loadNow() }, settings: opts.settings, rows, totalSeconds: Math.round((performance.now() - opts.started) / 1000) };
  writeFileSync(path.join(ROOT, "bench/growth.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(ROOT, "bench/growth.md"), table);
  log(`\n[${elapsed()}] Done. Load average now ${report.machine.loadAverageAtEnd.join(" / ")}.\n\n${table}`);
  log(`Written: bench/growth.json, bench/growth.md (the table for docs/performance.md)`);
}
