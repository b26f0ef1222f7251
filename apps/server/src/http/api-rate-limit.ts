import rateLimit from "@fastify/rate-limit";
import { accessMessages } from "@elo/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { bearerToken } from "../auth/api-token";
import { hashSecret } from "../auth/tokens";
import type { Config } from "../config";

/** tRPC's JSON-RPC number for TOO_MANY_REQUESTS, so the typed client sees a normal procedure error. */
const TOO_MANY_REQUESTS_RPC_CODE = -32029;

/**
 * Per-token rate limit on /trpc for requests that carry a bearer token: a script in a loop cannot
 * starve the server, and one noisy token does not slow the others. Keyed by the token's hash so the
 * secret never sits in memory as a map key. Browser (cookie) requests are not counted here.
 */
export async function registerApiRateLimit(app: FastifyInstance, config: Config) {
  if (!config.RATE_LIMIT) return;
  if (!app.hasDecorator("createRateLimit")) await app.register(rateLimit, { global: false });
  const check = app.createRateLimit({
    max: config.API_RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => `api-token:${hashSecret(bearerToken(req.headers.authorization) ?? "")}`,
  });
  app.addHook("onRequest", async (req, reply) => {
    if (!req.url.startsWith("/trpc/") || bearerToken(req.headers.authorization) === undefined) return;
    const limit = await check(req);
    if (limit.isAllowed || !limit.isExceeded) return;
    const seconds = Math.max(1, Math.ceil(limit.ttl / 1000));
    const url = new URL(req.url, "http://x");
    const paths = decodeURIComponent(url.pathname.slice("/trpc/".length)).split(",");
    const error = (path: string) => ({
      error: {
        json: {
          message: accessMessages.tooManyRequests,
          code: TOO_MANY_REQUESTS_RPC_CODE,
          data: { code: "TOO_MANY_REQUESTS", httpStatus: 429, path, toast: { title: accessMessages.tooManyRequests }, fieldErrors: null },
        },
      },
    });
    const body = url.searchParams.get("batch") === "1" ? paths.map(error) : error(paths[0] ?? "");
    return reply.code(429).header("retry-after", String(seconds)).send(body);
  });
}
