import fastifyRateLimit from "@fastify/rate-limit";
import { accessMessages, LIMITS, privacyMessages } from "@elo/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken } from "../auth/api-token";
import { hashSecret } from "../auth/tokens";
import type { Config } from "../config";
import { noteRateLimitRefusal, rateLimitRefusals } from "../lib/metrics";
import { isBatchRequest, routedCalls } from "./routed";
import { sendTrpcError } from "./trpc-error";
import type { SharedLimits } from "../deps";

interface Limit {
  paths: readonly string[];
  max: number;
  timeWindow: number;
  /** The 429 toast when the generic 'Muitas requisições' would not tell the user enough. */
  message?: string;
}

/** Per-IP limits of the procedures worth abusing (tRPC paths), on top of the per-account lockout. */
export const RATE_LIMITS = {
  login: { paths: ["auth.login"], max: 20, timeWindow: 60_000 },
  signup: { paths: ["auth.signup"], max: 10, timeWindow: 10 * 60_000 },
  recovery: { paths: ["auth.requestPasswordReset", "auth.resetPassword", "auth.resendConfirmation", "auth.confirmEmail"], max: 10, timeWindow: 15 * 60_000 },
  claim: { paths: ["claim.create"], max: 30, timeWindow: 60_000 },
  // Each 'Testar' or 'Reenviar' stores an event or a delivery and makes the server POST to the
  // school's URL: a held-down button or a loop would fill the log and hammer the receiver.
  webhookSend: { paths: ["school.webhooks.test", "school.webhooks.resend"], max: 20, timeWindow: 60_000 },
  // Each message is stored and e-mailed to the platform's address: a public form worth flooding.
  contact: { paths: ["contact.send"], max: 5, timeWindow: 10 * 60_000, message: privacyMessages.contactTooMany },
} as const satisfies Record<string, Limit>;
type Group = keyof typeof RATE_LIMITS;

/** Per API token (bearer requests), every procedure: `API_RATE_LIMIT_PER_MINUTE` calls in this window. */
export const API_TOKEN_WINDOW_MS = 60_000;

const groupOf = new Map<string, Group>(Object.entries(RATE_LIMITS).flatMap(([group, l]) => l.paths.map((p) => [p, group as Group] as const)));

/** A tRPC-shaped 429 so the client shows the Portuguese toast (one entry per call of a batch). */
function sendTooManyRequests(req: FastifyRequest, reply: FastifyReply, calls: string[], retryAfterSeconds: number, message: string) {
  reply.header("retry-after", String(retryAfterSeconds));
  return sendTrpcError(reply, { status: 429, code: "TOO_MANY_REQUESTS", message, path: isBatchRequest(req) ? calls : calls[0] });
}

interface Counter {
  check: ReturnType<FastifyInstance["createRateLimit"]>;
  message: string;
  /** The limit's name in the metrics (a RATE_LIMITS key, or "api-token"). */
  name: string;
}

/**
 * The per-IP limits of RATE_LIMITS and the per-token API limit, in one place (off with RATE_LIMIT=0).
 * Every call is keyed on the procedure the router resolved (`routedCalls`), and every call of a
 * batch counts once against each limit it falls under. The counters live in this process's memory,
 * or in Redis for every process when `shared` is given (REDIS_URL; shared-limits.ts).
 */
export async function registerRateLimits(app: FastifyInstance, config: Config, shared: SharedLimits | null = null) {
  if (!config.RATE_LIMIT) return;
  await app.register(fastifyRateLimit, { global: false, ...(shared && { store: shared.store }) });

  const perIp = Object.fromEntries(
    Object.entries(RATE_LIMITS as Record<Group, Limit>).map(([group, l]) => [
      group,
      {
        check: app.createRateLimit({ max: l.max, timeWindow: l.timeWindow, keyGenerator: (req) => `${group}:${req.ip}` }),
        message: l.message ?? accessMessages.tooManyRequests,
        name: group,
      },
    ]),
  ) as Record<Group, Counter>;
  // Keyed by the token's hash so the secret never sits in the store. Checked before the token is
  // looked up: a flood of unknown tokens is limited too.
  const perToken: Counter = {
    check: app.createRateLimit({
      max: config.API_RATE_LIMIT_PER_MINUTE,
      timeWindow: API_TOKEN_WINDOW_MS,
      keyGenerator: (req) => `api-token:${hashSecret(bearerToken(req.headers.authorization) ?? "")}`,
    }),
    message: accessMessages.tooManyRequests,
    name: "api-token",
  };

  /** Counts each call against its limits; sends the 429 and answers true at the first one over. */
  async function overLimit(req: FastifyRequest, reply: FastifyReply, calls: string[], counters: Counter[]): Promise<boolean> {
    for (const counter of counters) {
      const limit = await counter.check(req);
      if (!limit.isAllowed && limit.isExceeded) {
        rateLimitRefusals.inc({ limit: counter.name });
        noteRateLimitRefusal(counter.name);
        sendTooManyRequests(req, reply, calls, Math.max(1, Math.ceil(limit.ttl / 1000)), counter.message);
        return true;
      }
    }
    return false;
  }

  // Callback style: most requests fall under no limit and go on without a promise.
  app.addHook("onRequest", (req, reply, done) => {
    const calls = routedCalls(req);
    // Over the batch cap tRPC refuses the whole request before running any call (maxBatchSize).
    if (calls.length === 0 || calls.length > LIMITS.batchMaxCalls) return done();
    const withToken = bearerToken(req.headers.authorization) !== undefined;
    // Nearly every request calls no limited procedure and has no token: no counter list to build.
    if (!withToken && !calls.some((p) => groupOf.has(p))) return done();
    const counters = calls.flatMap((p) => {
      const group = groupOf.get(p);
      return [...(group ? [perIp[group]] : []), ...(withToken ? [perToken] : [])];
    });
    overLimit(req, reply, calls, counters).then((sent) => sent || done(), done);
  });
}
