import { perUnit, profilePass, withCpu } from "../lib/cpu";
import { clientIp, load } from "../lib/http";
import { startBareServer, type Probe } from "../lib/processes";
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
      const pass = (target: { url: string; probe: Probe }) => withCpu(target.probe, () => load({ url: target.url, connections: 100, pipelining: 10, duration: seconds, requests }));
      const { result: app, cpuMs: appCpu } = await pass(ctx.server);
      const { result: base, cpuMs: baseCpu } = await pass(bare);
      const { result: floor, cpuMs: floorCpu } = await pass(trpcOnly);
      const cpu = { app: perUnit(appCpu, app.ok), bare: perUnit(baseCpu, base.ok), trpcOnly: perUnit(floorCpu, floor.ok) };
      ctx.log(
        `    framework pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${round(app.rps)} req/s (non-2xx ${app.non2xx}, CPU ${cpu.app} ms/req) | ` +
          `bare Fastify ${round(base.rps)} req/s (CPU ${cpu.bare} ms/req) | tRPC alone ${round(floor.rps)} req/s (CPU ${cpu.trpcOnly} ms/req)`,
      );
      return { app, base, floor, cpu };
    });
    const profiled = (target: { url: string }) => async () => (await load({ url: target.url, connections: 100, pipelining: 10, duration: passSeconds(ctx, true), requests })).ok;
    if (ctx.profiles !== false) await profilePass(ctx.server.probe, "trivial-procedure", ctx.workDir, profiled(ctx.server));
    if (ctx.profiles !== false) await profilePass(trpcOnly.probe, "trivial-trpc-alone", ctx.workDir, profiled(trpcOnly));
    const app = median(runs.map((r) => r.app.rps));
    const base = median(runs.map((r) => r.base.rps));
    const floor = median(runs.map((r) => r.floor.rps));
    return {
      ratioPasses: runs.map((r) => r.app.rps / r.base.rps),
      /** The app's CPU per request ÷ tRPC alone's, each pass (goal ≤ 1.15). */
      cpuVsTrpcPasses: runs.map((r) => r.cpu.app / r.cpu.trpcOnly),
      cpuMsPerRequest: {
        app: median(runs.map((r) => r.cpu.app)),
        bare: median(runs.map((r) => r.cpu.bare)),
        trpcOnly: median(runs.map((r) => r.cpu.trpcOnly)),
      },
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
