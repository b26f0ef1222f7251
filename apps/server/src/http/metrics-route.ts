import { createHash, timingSafeEqual } from "node:crypto";
import { LIMITS } from "@elo/shared";
import type { AnyRouter } from "@trpc/server";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { Gauge, Registry } from "prom-client";
import { bearerToken } from "../auth/api-token";
import { queryRows } from "../db/raw";
import type { AppDeps } from "../deps";
import { httpResponses, metricsRegistry, statusClass, trpcCalls, trpcDuration } from "../lib/metrics";
import { TRPC_PREFIX } from "./routed";

const TRPC_ROUTE = `${TRPC_PREFIX}/:path`;
/** How long a scrape waits for the database's figures before leaving them out. */
const SCRAPE_DB_TIMEOUT_MS = 2000;

/** Every procedure path the router serves ("auth.login", ...): the only values the procedure label takes. */
export function procedureNames(router: AnyRouter): Set<string> {
  return new Set(Object.keys((router._def as { procedures: Record<string, unknown> }).procedures));
}

const sha256 = (s: string) => createHash("sha256").update(s).digest();

/**
 * Counts every answer (route pattern and status class) and every tRPC call (procedure and status
 * class), and serves GET /metrics to whoever holds METRICS_TOKEN (decision 180). Without the token
 * configured the route answers 404, as if it were not there.
 */
export function registerMetrics(app: FastifyInstance, deps: AppDeps, router: AnyRouter) {
  const known = procedureNames(router);

  // Callback hook, no promise: a lookup and two additions per call.
  app.addHook("onResponse", (req, reply, done) => {
    const route = req.routeOptions.url ?? "unmatched";
    const status = statusClass(reply.statusCode);
    httpResponses.inc({ route, status_class: status });
    if (route === TRPC_ROUTE) {
      const seconds = reply.elapsedTime / 1000;
      let path: string;
      try {
        path = decodeURIComponent((req.params as { path: string }).path);
      } catch {
        path = "";
      }
      // As tRPC splits a batch; past the batch cap tRPC refused the whole request, counted once.
      const calls = path.split(",", LIMITS.batchMaxCalls + 1);
      const names = calls.length > LIMITS.batchMaxCalls ? ["unknown"] : calls.map((c) => (known.has(c) ? c : "unknown"));
      for (const procedure of names) {
        trpcCalls.inc({ procedure, status_class: status });
        trpcDuration.observe({ procedure }, seconds);
      }
    }
    done();
  });

  const scrape = scrapeTimeMetrics(deps);
  const token = deps.config.METRICS_TOKEN;
  const expected = token ? sha256(token) : null;
  app.get("/metrics", async (req, reply) => {
    if (!expected) return reply.code(404).send({ error: "Não encontrado" });
    const given = bearerToken(req.headers.authorization);
    if (given === undefined || !timingSafeEqual(sha256(given), expected)) {
      return reply.code(401).header("www-authenticate", 'Bearer realm="metrics"').send({ error: "Token de métricas ausente ou inválido" });
    }
    await scrape.refresh();
    const text = `${await metricsRegistry.metrics()}\n${await scrape.registry.metrics()}`;
    return reply.header("content-type", metricsRegistry.contentType).header("cache-control", "no-store").send(text);
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * Figures read from the database when scraped: the outbox's depth and the age of its oldest pending
 * row, and the database's client connections by state (every replica's, from pg_stat_activity).
 * This process's own pool (in use, waiting) is counted exactly by the client wrapper (decision 186).
 */
function scrapeTimeMetrics(deps: AppDeps) {
  const registry = new Registry();
  const registers = [registry];
  const up = new Gauge({ name: "elo_database_up", help: "1 when the database answered this scrape's ping.", registers });
  const outbox = new Gauge({ name: "elo_outbox_emails", help: "E-mails in the outbox by status.", labelNames: ["status"] as const, registers });
  const oldest = new Gauge({ name: "elo_outbox_oldest_pending_age_seconds", help: "Age of the oldest pending e-mail (0 when none).", registers });
  const connections = new Gauge({
    name: "elo_database_connections",
    help: "Client connections to this database by state (pg_stat_activity; every replica's; PostgreSQL only).",
    labelNames: ["state"] as const,
    registers,
  });

  // The pool as this process's client sees it (decision 186): exact, counted where queries enter it.
  new Gauge({
    name: "elo_database_pool_connections",
    help: "This process's pool: connections serving a query or transaction (in_use), calls waiting for one (waiting), its size (max). PostgreSQL only.",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const stats = deps.dbHandle.pool();
      this.reset();
      if (!stats) return;
      this.set({ state: "in_use" }, stats.inUse);
      this.set({ state: "waiting" }, stats.waiting);
      this.set({ state: "max" }, stats.max);
    },
  });

  async function read() {
    const rows = await queryRows<{ status: string; n: number; oldest: Date | string | null }>(
      deps.db,
      sql`select status::text as status, count(*)::int as n, min(created_at) filter (where status = 'pending') as oldest from email_outbox group by status`,
    );
    outbox.reset();
    for (const s of ["pending", "sent", "failed"]) outbox.set({ status: s }, 0);
    let oldestAt: number | null = null;
    for (const r of rows) {
      outbox.set({ status: r.status }, Number(r.n));
      if (r.oldest) oldestAt = new Date(r.oldest).getTime();
    }
    oldest.set(oldestAt === null ? 0 : Math.max(0, (deps.clock.now().getTime() - oldestAt) / 1000));
    connections.reset();
    if (deps.dbHandle.kind === "postgres") {
      const states = await queryRows<{ state: string; n: number }>(
        deps.db,
        sql`select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend' group by 1`,
      );
      for (const r of states) connections.set({ state: r.state }, Number(r.n));
    }
  }

  return {
    registry,
    async refresh() {
      const alive = await deps.dbHandle.ping(SCRAPE_DB_TIMEOUT_MS);
      up.set(alive ? 1 : 0);
      if (!alive) return;
      await withTimeout(read(), SCRAPE_DB_TIMEOUT_MS).catch((error: unknown) => deps.logger.warn({ err: error }, "metrics: database figures left out of this scrape"));
    },
  };
}
