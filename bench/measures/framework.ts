import { clientIp, load } from "../lib/http";
import { startBareServer } from "../lib/processes";
import { median, passes, round } from "../lib/stats";
import { passSeconds, type MeasureContext } from "./context";

/**
 * Figure 3: a trivial procedure (auth.me for a visitor) through the production app ÷ a bare Fastify
 * route, -c100 -p10. Also measured, to tell the app's own cost from tRPC's: the same procedure
 * through tRPC's Fastify adapter alone (no hooks, context or plugins).
 */
export async function measureFramework(ctx: MeasureContext) {
  const bare = await startBareServer("bare-server.mjs");
  const trpcOnly = await startBareServer("bare-trpc-server.mjs");
  try {
    let n = 0;
    const requests = [
      {
        method: "GET",
        path: "/trpc/auth.me",
        setupRequest: (req: object) => ({ ...req, headers: { "x-forwarded-for": clientIp(n++) } }),
      },
    ];
    const runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
      const seconds = passSeconds(ctx, warmup);
      const app = await load({ url: ctx.server.url, connections: 100, pipelining: 10, duration: seconds, requests });
      const base = await load({ url: bare.url, connections: 100, pipelining: 10, duration: seconds, requests });
      const floor = await load({ url: trpcOnly.url, connections: 100, pipelining: 10, duration: seconds, requests });
      ctx.log(`    framework pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${round(app.rps)} req/s (non-2xx ${app.non2xx}) | bare Fastify ${round(base.rps)} req/s | tRPC alone ${round(floor.rps)} req/s`);
      return { app, base, floor };
    });
    const app = median(runs.map((r) => r.app.rps));
    const base = median(runs.map((r) => r.base.rps));
    const floor = median(runs.map((r) => r.floor.rps));
    return {
      ratioPasses: runs.map((r) => r.app.rps / r.base.rps),
      ratio: round(median(runs.map((r) => r.app.rps / r.base.rps)), 3),
      appRps: round(app),
      bareRps: round(base),
      trpcOnlyRps: round(floor),
      trpcOnlyRatio: round(median(runs.map((r) => r.floor.rps / r.base.rps)), 3),
      appNon2xx: runs.reduce((a, r) => a + r.app.non2xx + r.app.errors, 0),
    };
  } finally {
    await bare.stop();
    await trpcOnly.stop();
  }
}
