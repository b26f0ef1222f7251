import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { countOp } from "./ops-counts";

/**
 * The process's Prometheus metrics (decision 180). Counters live in one registry per process, as
 * Prometheus expects (each replica is one target); the code that counts imports them from here, so
 * counting costs a map lookup and an addition. Figures read from the database (outbox, jobs,
 * connections) are not kept here: /metrics reads them at scrape time (http/metrics-route.ts).
 *
 * Every label takes a bounded set of values: a procedure name the router knows (else "unknown"),
 * a route pattern (never a URL), a status class, a limit's name, a refusal reason, a job's name.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: "elo_", eventLoopMonitoringPrecision: 20 });

const registers = [metricsRegistry];

/** One tRPC call: each call of a batch counts once, labelled with its procedure and the answer's status class. */
export const trpcCalls = new Counter({
  name: "elo_trpc_calls_total",
  help: "tRPC procedure calls, each call of a batch counted once; unknown names are labelled 'unknown'.",
  labelNames: ["procedure", "status_class"] as const,
  registers,
});

/** Time until the answer of the request that carried the call. */
export const trpcDuration = new Histogram({
  name: "elo_trpc_call_duration_seconds",
  help: "Seconds until the answer of the request carrying the call (a batch's calls share its time).",
  labelNames: ["procedure"] as const,
  buckets: [0.005, 0.025, 0.1, 0.25, 1, 2.5, 10],
  registers,
});

/** Every HTTP answer by route pattern (Fastify's, never the URL) and status class. */
export const httpResponses = new Counter({
  name: "elo_http_responses_total",
  help: "HTTP answers by route pattern ('unmatched' when no route) and status class.",
  labelNames: ["route", "status_class"] as const,
  registers,
});

export const rateLimitRefusals = new Counter({
  name: "elo_rate_limit_refusals_total",
  help: "Requests refused with 429 by the per-IP or per-token limits, by limit.",
  labelNames: ["limit"] as const,
  registers,
});

export const logins = new Counter({
  name: "elo_logins_total",
  help: "Login attempts by outcome: ok, refused (wrong e-mail or password) or locked (lockout).",
  labelNames: ["outcome"] as const,
  registers,
});

export const claims = new Counter({
  name: "elo_claims_total",
  help: "Claims by outcome: committed, or refused with the refusal's reason.",
  labelNames: ["outcome", "reason"] as const,
  registers,
});

export const emails = new Counter({
  name: "elo_emails_total",
  help: "E-mail delivery attempts by this process: sent, or failed (to be retried, or given up).",
  labelNames: ["outcome"] as const,
  registers,
});

export const jobRuns = new Counter({
  name: "elo_job_runs_total",
  help: "Scheduled job runs in this process by outcome (ok or failed).",
  labelNames: ["job", "outcome"] as const,
  registers,
});

export const jobLastSuccess = new Gauge({
  name: "elo_job_last_success_timestamp_seconds",
  help: "When the job last ran without error in this process (Unix time).",
  labelNames: ["job"] as const,
  registers,
});

/** "2xx", "4xx"...: five values whatever the status. */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** A rate-limit refusal, for every replica's count on the Operação page (decision 188). */
export function noteRateLimitRefusal(limit: string, nowMs = Date.now()) {
  countOp("rate_limit_refusal", limit, nowMs);
}
