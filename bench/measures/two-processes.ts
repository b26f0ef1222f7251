import { cpus } from "node:os";
import path from "node:path";
import type { BenchSession } from "../lib/fixtures";
import { load, type HttpResult } from "../lib/http";
import { startProductionServer } from "../lib/processes";
import { median, passes, round } from "../lib/stats";
import { passSeconds, type MeasureContext } from "./context";
import { marketplaceRequests } from "./marketplace";

/** Clients per load generator; two generators run at once on both sides (20 clients in all). */
export const CLIENTS_PER_LOADER = 10;

/** What the load generators of one side got together: their 2xx per second summed, failures counted. */
export interface SideResult {
  rps: number;
  non2xx: number;
}

/** The load generators of one side ran side by side for the same seconds: their rates add up. */
export function combineLoaders(results: HttpResult[]): SideResult {
  return { rps: results.reduce((a, r) => a + r.rps, 0), non2xx: results.reduce((a, r) => a + r.non2xx + r.errors, 0) };
}

/** The figure's passes and medians from each pass's two sides. */
export function summarizeTwoProcesses(runs: Array<{ one: SideResult; two: SideResult }>) {
  return {
    ratioPasses: runs.map((r) => r.two.rps / r.one.rps),
    ratio: round(median(runs.map((r) => r.two.rps / r.one.rps)), 3),
    oneRps: round(median(runs.map((r) => r.one.rps)), 1),
    twoRps: round(median(runs.map((r) => r.two.rps)), 1),
    non2xx: runs.reduce((a, r) => a + r.one.non2xx + r.two.non2xx, 0),
  };
}

/**
 * Figure 6: marketplace.list requests/s with two production server processes on the same database
 * ÷ with one, in the same run (issue 16, decision 137). A second server is started on the bench
 * database next to the first. Both sides run the same two load generators at once, 10 clients each,
 * with the same parents' sessions: one side points both at the first server, the other one at each
 * server. Only the number of server processes differs, not the client's cost or concurrency. The
 * order of the sides alternates from pass to pass. The machine's cores bound the ratio: the app
 * processes, PostgreSQL and the load generator share them.
 */
export async function measureTwoProcesses(ctx: MeasureContext, sessions: BenchSession[]) {
  const second = await startProductionServer({ databaseUrl: ctx.databaseUrl, dataDir: path.join(ctx.workDir, "data"), logFile: path.join(ctx.workDir, "server-2.log") });
  try {
    const requests = marketplaceRequests(sessions);
    const side = async (urls: string[], seconds: number) => combineLoaders(await Promise.all(urls.map((url) => load({ url, connections: CLIENTS_PER_LOADER, duration: seconds, requests }))));
    const runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
      const seconds = passSeconds(ctx, warmup);
      const measureOne = () => side([ctx.server.url, ctx.server.url], seconds);
      const measureTwo = () => side([ctx.server.url, second.url], seconds);
      let one: SideResult;
      let two: SideResult;
      if (i % 2 === 0) {
        one = await measureOne();
        two = await measureTwo();
      } else {
        two = await measureTwo();
        one = await measureOne();
      }
      ctx.log(`    two-process pass ${i + 1}${warmup ? " (warm-up)" : ""}: one process ${round(one.rps, 1)} req/s (non-2xx ${one.non2xx}) | two processes ${round(two.rps, 1)} req/s (non-2xx ${two.non2xx})`);
      return { one, two };
    });
    return { ...summarizeTwoProcesses(runs), clients: 2 * CLIENTS_PER_LOADER, cores: cpus().length };
  } finally {
    await second.stop();
  }
}
