/**
 * The metrics hook's CPU per request (decision 180): `npx tsx bench/metrics-hook.ts [--requests 20000] [--rounds 6]`.
 * Two Fastify apps answer the same tRPC-shaped route (`/trpc/:path`, a 3-call batch URL, a small
 * JSON answer); one has registerMetrics's onResponse hook. Requests go through Fastify's whole
 * lifecycle in this process (`inject`, no sockets), rounds alternating between the two apps, and
 * the process's CPU time (user + system) per request is compared. On a loaded machine the figures
 * move: read the difference of the medians, not one round.
 */
import { parseArgs } from "node:util";
import Fastify, { type FastifyInstance } from "fastify";
import { registerMetrics } from "../apps/server/src/http/metrics-route";
import { appRouter } from "../apps/server/src/routers/_app";
import { median, round } from "./lib/stats";

const { values: flags } = parseArgs({ options: { requests: { type: "string", default: "20000" }, rounds: { type: "string", default: "6" } } });
const requests = Number(flags.requests);
const rounds = Number(flags.rounds);
const URL_ = "/trpc/reference.states,auth.me,marketplace.list?batch=1&input=%7B%7D";

async function app(withMetrics: boolean): Promise<FastifyInstance> {
  const a = Fastify({ logger: false, routerOptions: { maxParamLength: 5000 } });
  // Only what registerMetrics reads when it is set up (no scrape happens here).
  const deps = { config: { METRICS_TOKEN: undefined }, dbHandle: { pool: () => null } } as never;
  if (withMetrics) registerMetrics(a, deps, appRouter);
  a.get("/trpc/:path", async () => [{ result: { data: { json: { ok: true } } } }, { result: { data: { json: null } } }, { result: { data: { json: [] } } }]);
  await a.ready();
  return a;
}

/** CPU microseconds per request over `requests` injected requests, 50 at a time. */
async function cpuPerRequest(a: FastifyInstance): Promise<number> {
  const start = process.cpuUsage();
  for (let done = 0; done < requests; done += 50) {
    const answers = await Promise.all(Array.from({ length: 50 }, () => a.inject({ method: "GET", url: URL_ })));
    if (answers.some((r) => r.statusCode !== 200)) throw new Error(`answer ${answers.find((r) => r.statusCode !== 200)!.statusCode}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests;
}

/**
 * The hook alone, called directly with a request and reply as Fastify hands them (a 3-call batch):
 * CPU microseconds per call, median of rounds of 100,000. Less at the mercy of the load than the
 * difference of two whole-request figures.
 */
function hookAlone(): number[] {
  let hook: ((req: unknown, reply: unknown, done: () => void) => void) | undefined;
  const fake = { addHook: (_name: string, fn: typeof hook) => (hook = fn), get: () => {} } as never;
  registerMetrics(fake, { config: { METRICS_TOKEN: undefined }, dbHandle: { pool: () => null } } as never, appRouter);
  const req = { routeOptions: { url: "/trpc/:path" }, params: { path: "reference.states,auth.me,marketplace.list" } };
  const reply = { statusCode: 200, elapsedTime: 3.2 };
  const done = () => {};
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < 100_000; i++) hook!(req, reply, done);
    const used = process.cpuUsage(start);
    out.push((used.user + used.system) / 100_000);
  }
  return out;
}
const alone = hookAlone();

const bare = await app(false);
const metered = await app(true);
await cpuPerRequest(bare);
await cpuPerRequest(metered);
const without: number[] = [];
const withHook: number[] = [];
for (let r = 0; r < rounds; r++) {
  without.push(await cpuPerRequest(bare));
  withHook.push(await cpuPerRequest(metered));
}
const a = median(without);
const b = median(withHook);
console.log(JSON.stringify({ requests, rounds, url: URL_, hookAloneMicrosPerCall: round(median(alone), 2), hookAloneRounds: alone.map((x) => round(x, 2)), cpuMicrosPerRequest: { without: round(a, 1), with: round(b, 1), difference: round(b - a, 1), ratio: round(b / a, 3) }, rounds_without: without.map((x) => round(x, 1)), rounds_with: withHook.map((x) => round(x, 1)) }, null, 1));
await bare.close();
await metered.close();
