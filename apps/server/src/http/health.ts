import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";

/** How long /readyz and /healthz wait for the database's ping (the proxy's health_timeout is 2 s). */
const PING_TIMEOUT_MS = 1500;

/**
 * Three probes (decision 181):
 * - `/livez`: the process answers; nothing else is asked. A supervisor restarts a replica that
 *   fails it; a database outage never makes it fail.
 * - `/readyz`: this replica should be sent traffic: not draining (a graceful close has begun) and
 *   the database answers its ping. Redis and the bucket are reported, never decisive: without Redis
 *   the limits count per process, without the bucket only file routes fail, and taking every
 *   replica out of rotation for them would turn a partial outage into a total one.
 * - `/healthz`: as it always was (database up or down), for monitors that already poll it.
 * The graceful close answers /readyz and /healthz 503 itself from its first moment (shutdown.ts).
 */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps, close: { draining(): boolean }) {
  app.get("/livez", async (_req, reply) => reply.header("cache-control", "no-store").send({ status: "alive" }));

  app.get("/readyz", async (_req, reply) => {
    const draining = close.draining();
    const database = draining ? null : await deps.dbHandle.ping(PING_TIMEOUT_MS);
    const ready = !draining && database === true;
    return reply
      .code(ready ? 200 : 503)
      .header("cache-control", "no-store")
      .send({
        status: ready ? "ready" : "not-ready",
        draining,
        database: database === null ? "unchecked" : database ? "up" : "down",
        redis: deps.sharedLimits ? (deps.sharedLimits.connected() ? "up" : "down") : "off",
        storage: deps.config.s3 ? "s3" : "disk",
      });
  });

  app.get("/healthz", async (_req, reply) => {
    const ok = await deps.dbHandle.ping(2000);
    return reply.code(ok ? 200 : 503).send({ status: ok ? "ok" : "unavailable", database: ok ? "up" : "down" });
  });
}
