import { availableParallelism } from "node:os";
import { verify } from "@node-rs/argon2";
import { perUnit, profilePass } from "../lib/cpu";
import { clientIp, load, trpcBody } from "../lib/http";
import { BENCH_PASSWORD } from "../scale/options";
import { median, passes, percentile, round } from "../lib/stats";
import { passSeconds, type MeasureContext } from "./context";

/**
 * Figure 4: login p50 (one request at a time) ÷ argon2 verify p50 in-process on the same hash (so
 * the same parameters); then the event loop's p99 delay while 50 clients log in without pause.
 */
export async function measureLogin(ctx: MeasureContext, users: Array<{ email: string; passwordHash: string }>, perPass = 40) {
  let next = 0;
  const user = () => users[next++ % users.length]!;
  const hash = users[0]!.passwordHash;

  const loginOnce = async () => {
    const u = user();
    const t0 = performance.now();
    const res = await fetch(`${ctx.server.url}/trpc/auth.login`, {
      method: "POST",
      headers: { origin: ctx.server.url, "content-type": "application/json", "x-forwarded-for": clientIp(next) },
      body: trpcBody({ email: u.email, password: BENCH_PASSWORD }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`login answered ${res.status}`);
    return performance.now() - t0;
  };
  const verifyOnce = async () => {
    const t0 = performance.now();
    if (!(await verify(hash, BENCH_PASSWORD))) throw new Error("the bench password does not match the generated hash");
    return performance.now() - t0;
  };

  // What the idle server's main thread spends anyway (the webhook sender's and the mailer's polls,
  // timers): measured over a quiet stretch before the passes, at the same rate during them, it is not
  // a login's work and is taken out of the one-at-a-time figure (both are printed).
  const idleMainPerMs = await (async () => {
    const before = await ctx.server.probe.cpuSplit();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 3000));
    const after = await ctx.server.probe.cpuSplit();
    return (after.mainMicros - before.mainMicros) / 1000 / (performance.now() - t0);
  })();
  ctx.log(`    login: the idle server's main thread spends ${round(idleMainPerMs * 1000, 2)} ms of CPU per second`);

  const runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
    const login: number[] = [];
    const argon: number[] = [];
    // The server works only during its logins (the verifications run here): its main thread's CPU
    // over the pass, less its idle spending over the same time, ÷ the logins is a login's CPU
    // outside argon2, one at a time as a person logs in.
    const before = await ctx.server.probe.cpuSplit();
    const t0 = performance.now();
    // Interleaved, so both see the same machine load.
    for (let k = 0; k < perPass; k++) {
      login.push(await loginOnce());
      argon.push(await verifyOnce());
    }
    const after = await ctx.server.probe.cpuSplit();
    const mainMs = (after.mainMicros - before.mainMicros) / 1000;
    const idleMs = idleMainPerMs * (performance.now() - t0);
    const r = {
      login: percentile(login, 50),
      argon: percentile(argon, 50),
      mainCpu: perUnit(mainMs - idleMs, perPass),
      rawMainCpu: perUnit(mainMs, perPass),
      mainSystem: perUnit((after.mainSystemMicros - before.mainSystemMicros) / 1000, perPass),
    };
    ctx.log(`    login pass ${i + 1}${warmup ? " (warm-up)" : ""}: login p50 ${round(r.login)} ms | argon2 verify p50 ${round(r.argon)} ms | main thread's CPU ${r.mainCpu} ms/login beyond its idle spending (${r.rawMainCpu} in all, of which system ${r.mainSystem})`);
    return r;
  });

  let m = 0;
  const requests = [
    {
      method: "POST",
      path: "/trpc/auth.login",
      setupRequest: (req: object) => {
        const u = users[(next + m++) % users.length]!;
        return {
          ...req,
          headers: { origin: ctx.server.url, "content-type": "application/json", "x-forwarded-for": clientIp(500_000 + m) },
          body: trpcBody({ email: u.email, password: BENCH_PASSWORD }),
        };
      },
    },
  ];
  // One argon2 verification's CPU (every thread of this process), the part of a login that is not
  // ours; as many at a time as the server lets run in the storm (cores - 1, decision 085: memory-hard
  // hashes side by side cost more CPU each than one alone).
  const argonCpuMs = await (async () => {
    const perWorker = 10;
    const workers = Math.max(1, availableParallelism() - 1);
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: workers }, async () => {
      for (let j = 0; j < perWorker; j++) await verify(hash, BENCH_PASSWORD);
    }));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / (perWorker * workers);
  })();
  const storms = await passes(1, ctx.passes, async (i, warmup) => {
    await ctx.server.eventLoop("reset");
    const before = await ctx.server.probe.cpuSplit();
    const http = await load({ url: ctx.server.url, connections: 50, duration: passSeconds(ctx, warmup), requests });
    const after = await ctx.server.probe.cpuSplit();
    const eld = await ctx.server.eventLoop("report");
    const cpu = perUnit((after.micros - before.micros) / 1000, http.ok);
    const mainCpu = perUnit((after.mainMicros - before.mainMicros) / 1000, http.ok);
    if (eld === "reset") throw new Error("event-loop probe answered out of order");
    ctx.log(`    login storm ${i + 1}${warmup ? " (warm-up)" : ""}: ${round(http.rps, 1)} logins/s, p50 ${http.p50} ms, p99 ${http.p99} ms, non-2xx ${http.non2xx} | event loop p99 ${eld.p99} ms, max ${eld.max} ms | CPU ${cpu} ms/login (main thread ${mainCpu}), ${round(cpu - argonCpuMs, 3)} ms beyond one verification's`);
    return { http, eld, cpu, mainCpu };
  });
  if (ctx.profiles !== false) await profilePass(ctx.server.probe, "login", ctx.workDir, async () => (await load({ url: ctx.server.url, connections: 50, duration: passSeconds(ctx, true), requests })).ok);

  const loginP50 = median(runs.map((r) => r.login));
  const argonP50 = median(runs.map((r) => r.argon));
  return {
    ratioPasses: runs.map((r) => r.login / r.argon),
    argon2CpuMs: round(argonCpuMs, 3),
    /**
     * CPU per login outside argon2, each pass of one login at a time (goal ≤ 1 ms): the main
     * thread's, where all of the login but the hash runs (argon2 runs on libuv's pool).
     */
    cpuOutsideArgonPasses: runs.map((r) => r.mainCpu),
    /** The same before the idle server's own spending is taken out. */
    rawCpuOutsideArgonPasses: runs.map((r) => r.rawMainCpu),
    idleMainMsPerSecond: round(idleMainPerMs * 1000, 3),
    /** The same in the 50-client storm, where four hashes at once slow everything else on the machine. */
    stormMainCpuPasses: storms.map((s) => s.mainCpu),
    /** The process's CPU per login minus one verification's measured here, as many at a time as the server runs: the same, read from outside. */
    cpuBeyondVerificationPasses: storms.map((s) => s.cpu - argonCpuMs),
    ratio: round(median(runs.map((r) => r.login / r.argon)), 3),
    loginP50Ms: round(loginP50),
    argon2P50Ms: round(argonP50),
    storm: {
      clients: 50,
      loginsPerSecond: round(median(storms.map((s) => s.http.rps)), 1),
      p99Ms: median(storms.map((s) => s.http.p99)),
      non2xx: storms.reduce((a, s) => a + s.http.non2xx + s.http.errors, 0),
      eventLoopP99Passes: storms.map((s) => s.eld.p99),
      /** Storm passes in which no login completed: their event-loop delay says nothing about logins. */
      passesWithoutLogins: storms.filter((s) => s.http.ok === 0).length,
      eventLoopP99Ms: median(storms.map((s) => s.eld.p99)),
      eventLoopMaxMs: Math.max(...storms.map((s) => s.eld.max)),
    },
  };
}
