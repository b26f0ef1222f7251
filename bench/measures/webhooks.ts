import { createServer, request } from "node:http";
import path from "node:path";
import postgres from "postgres";
import { startProductionServer } from "../lib/processes";
import { median, passes, percentile, round } from "../lib/stats";
import { WEBHOOK_IN_FLIGHT } from "../../apps/server/src/webhooks/sender";
import type { MeasureContext } from "./context";

/** Deliveries in flight per server process (the sender's slots): the bare client gets the same total. */
const PER_PROCESS = WEBHOOK_IN_FLIGHT;
/**
 * Events of one pass: a few seconds of delivery, so the wait for the first poll (up to
 * WEBHOOK_POLL_MS, the lag figure's business) is not most of the pass; 1,500 was under a second.
 */
const BURST = 6000;
const LAG_SECONDS = 8;

/** A local receiver answering 200 and noting when each webhook-id arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      arrivals.set(String(req.headers["webhook-id"]), performance.timeOrigin + performance.now());
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { arrivals, url: `http://localhost:${port}/hook`, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/** The same bodies and headers POSTed by a bare node:http client (no database), `concurrency` at a time. */
async function bareSend(url: string, bodies: string[], concurrency: number) {
  let next = 0;
  const started = performance.now();
  const one = (body: string, id: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { method: "POST", agent: false, headers: { "content-type": "application/json", "webhook-id": `bare-${id}`, "webhook-timestamp": "0", "webhook-signature": "v1,x" } }, (res) => {
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end(body);
    });
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < bodies.length) {
      const i = next++;
      await one(bodies[i]!, i);
    }
  }));
  return bodies.length / ((performance.now() - started) / 1000);
}

/**
 * Issue 29's figures: events delivered per second from the outbox to a local receiver by two server
 * processes, ÷ a bare HTTP client sending the same bodies with the same concurrency; then the lag
 * from commit to delivery (p99) with events committed steadily at half that rate. The servers run
 * with NODE_ENV=development: production's SSRF guard refuses a receiver on 127.0.0.1.
 */
export async function measureWebhooks(ctx: MeasureContext) {
  const receiver = await startReceiver();
  const sql = postgres(ctx.databaseUrl, { max: 2, onnotice: () => {} });
  const dev = { NODE_ENV: "development", DEMO: "0" };
  const servers = await Promise.all([1, 2].map((n) => startProductionServer({ databaseUrl: ctx.databaseUrl, dataDir: path.join(ctx.workDir, `data-webhooks-${n}`), logFile: path.join(ctx.workDir, `server-webhooks-${n}.log`), env: dev })));
  try {
    const [school] = await sql<{ id: string }[]>`select id from schools order by id limit 1`;
    const [endpoint] = await sql<{ id: string }[]>`
      insert into webhook_endpoints (school_id, url, events, secret) values (${school!.id}, ${receiver.url}, ${["voucher.used"]}, ${`whsec_${Buffer.alloc(32, 3).toString("base64")}`}) returning id`;
    const payload = { id: "00000000-0000-0000-0000-000000000000", voucherCode: "1234-ABCD", status: "utilizado", className: "Inglês Kids", studentName: "Aluno de Teste", parentName: "Responsável de Teste", discountPercentage: 25, monthlyFee: 400, discountedFee: 300 };
    /** Commits `n` events with one delivery each; returns their ids and the commit time. */
    const commit = async (n: number) => {
      const ids = await sql.begin(async (tx) => {
        const rows = await tx<{ id: string }[]>`insert into webhook_events (school_id, type, payload) select ${school!.id}, 'voucher.used', ${payload as never}::jsonb from generate_series(1, ${n}) returning id`;
        await tx`insert into webhook_deliveries (event_id, endpoint_id) select unnest(${rows.map((r) => r.id)}::uuid[]), ${endpoint!.id}`;
        return rows.map((r) => r.id);
      });
      return { ids, at: performance.timeOrigin + performance.now() };
    };
    const waitAll = async (ids: string[], ms: number) => {
      const deadline = Date.now() + ms;
      while (ids.some((id) => !receiver.arrivals.has(id))) {
        if (Date.now() > deadline) throw new Error(`webhooks: ${ids.filter((id) => !receiver.arrivals.has(id)).length} not delivered`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const body = JSON.stringify({ type: "voucher.used", timestamp: new Date().toISOString(), data: payload });
    const runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
      const { ids, at } = await commit(BURST);
      await waitAll(ids, 120_000);
      const times = ids.map((id) => receiver.arrivals.get(id)!);
      const first = Math.min(...times);
      const last = Math.max(...times);
      // Delivery throughput, from the first arrival to the last, as the bare client's is from its
      // first request; the time from the commit to the first pick-up is reported beside it.
      const webhookRate = (BURST - 1) / ((last - first) / 1000);
      const pickupMs = first - at;
      const bareRate = await bareSend(receiver.url, Array.from({ length: BURST }, () => body), 2 * PER_PROCESS);
      ctx.log(`    webhooks pass ${i + 1}${warmup ? " (warm-up)" : ""}: ${round(webhookRate, 1)} events/s delivered by 2 processes (first one ${Math.round(pickupMs)} ms after the commit) | bare client ${round(bareRate, 1)} req/s`);
      return { webhookRate, bareRate, pickupMs };
    });
    // Lag at half the measured delivery rate: small commits every 100 ms for LAG_SECONDS.
    const rate = median(runs.map((r) => r.webhookRate)) / 2;
    const perTick = Math.max(1, Math.round(rate / 10));
    const commits: Array<{ ids: string[]; at: number }> = [];
    for (let t = 0; t < LAG_SECONDS * 10; t++) {
      const tick = Date.now();
      commits.push(await commit(perTick));
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - tick))));
    }
    await waitAll(commits.flatMap((c) => c.ids), 60_000);
    const lags = commits.flatMap((c) => c.ids.map((id) => receiver.arrivals.get(id)! - c.at));
    return {
      ratioPasses: runs.map((r) => r.webhookRate / r.bareRate),
      webhookRate: round(median(runs.map((r) => r.webhookRate)), 1),
      pickupMs: Math.round(median(runs.map((r) => r.pickupMs))),
      bareRate: round(median(runs.map((r) => r.bareRate)), 1),
      lagLoad: round(perTick * 10, 1),
      lagP50: round(percentile(lags, 50)),
      lagP99: round(percentile(lags, 99)),
      events: lags.length,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await sql.end();
    await receiver.close();
  }
}
