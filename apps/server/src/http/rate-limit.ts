import fastifyRateLimit from "@fastify/rate-limit";
import { accessMessages, privacyMessages } from "@elo/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config";

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
  // Each message is stored and e-mailed to the platform's address: a public form worth flooding.
  contact: { paths: ["contact.send"], max: 5, timeWindow: 10 * 60_000, message: privacyMessages.contactTooMany },
} as const satisfies Record<string, Limit>;
type Group = keyof typeof RATE_LIMITS;

const groupOf = new Map<string, Group>(Object.entries(RATE_LIMITS).flatMap(([group, l]) => l.paths.map((p) => [p, group as Group] as const)));

/** The tRPC procedure paths of a request URL (`/trpc/a.b,c.d?batch=1` gives both). */
export function trpcPaths(url: string): string[] {
  const pathname = url.split("?")[0]!;
  if (!pathname.startsWith("/trpc/")) return [];
  let rest = pathname.slice("/trpc/".length);
  try {
    rest = decodeURIComponent(rest);
  } catch {
    return [];
  }
  return rest.split(",").filter(Boolean);
}

/** tRPC's JSON-RPC number for TOO_MANY_REQUESTS, so the typed client sees a normal procedure error. */
const TOO_MANY_REQUESTS_RPC_CODE = -32029;

/** A tRPC-shaped 429 so the client shows the Portuguese toast (one entry per call of a batch). */
export function sendTooManyRequests(req: FastifyRequest, reply: FastifyReply, paths: string[], retryAfterSeconds: number, message: string = accessMessages.tooManyRequests) {
  const error = (path: string | undefined) => ({
    error: {
      json: {
        message,
        code: TOO_MANY_REQUESTS_RPC_CODE,
        data: { code: "TOO_MANY_REQUESTS", httpStatus: 429, path, toast: { title: message }, fieldErrors: null },
      },
    },
  });
  const batch = (req.query as { batch?: string } | undefined)?.batch === "1";
  return reply
    .code(429)
    .header("retry-after", String(retryAfterSeconds))
    .header("content-type", "application/json")
    .send(JSON.stringify(batch ? paths.map(error) : error(paths[0])));
}

/** Registers @fastify/rate-limit for the groups of RATE_LIMITS (off with RATE_LIMIT=0). */
export async function registerRateLimits(app: FastifyInstance, config: Config) {
  if (!config.RATE_LIMIT) return;
  await app.register(fastifyRateLimit, { global: false });
  const limiters = Object.fromEntries(
    Object.entries(RATE_LIMITS as Record<Group, Limit>).map(([group, l]) => [
      group,
      {
        limit: l,
        check: app.rateLimit({
          max: l.max,
          timeWindow: l.timeWindow,
          keyGenerator: (req) => `${group}:${req.ip}`,
          errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, retryAfterSeconds: Math.ceil(ctx.ttl / 1000) }),
        }),
      },
    ]),
  ) as Record<Group, { limit: Limit; check: (req: FastifyRequest, reply: FastifyReply) => Promise<void> }>;

  /** Sends the 429 and answers true when one of the calls is over its group's limit. */
  async function overLimit(req: FastifyRequest, reply: FastifyReply, paths: string[]): Promise<boolean> {
    for (const path of paths) {
      const group = groupOf.get(path);
      if (!group) continue;
      try {
        // The plugin counts a request once; a view per call makes every call of a batch count.
        await limiters[group].check.call(app, Object.create(req) as FastifyRequest, reply);
      } catch (e) {
        const retry = (e as { retryAfterSeconds?: number }).retryAfterSeconds;
        if (retry === undefined) throw e;
        sendTooManyRequests(req, reply, paths, retry, limiters[group].limit.message);
        return true;
      }
    }
    return false;
  }

  // Callback style: most requests call no limited procedure and go on without a promise.
  app.addHook("onRequest", (req, reply, done) => {
    const paths = trpcPaths(req.url);
    if (!paths.some((p) => groupOf.has(p))) return done();
    overLimit(req, reply, paths).then((sent) => sent || done(), done);
  });
}
