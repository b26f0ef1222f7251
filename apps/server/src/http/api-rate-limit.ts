import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { bearerToken } from "../auth/api-token";
import { hashSecret } from "../auth/tokens";
import type { Config } from "../config";
import { sendTooManyRequests, trpcPaths } from "./rate-limit";

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
  // Callback style: cookie requests (the browser's) go on without a promise.
  app.addHook("onRequest", (req, reply, done) => {
    if (!req.url.startsWith("/trpc/") || bearerToken(req.headers.authorization) === undefined) return done();
    check(req).then((limit) => {
      if (limit.isAllowed || !limit.isExceeded) return done();
      sendTooManyRequests(req, reply, trpcPaths(req.url), Math.max(1, Math.ceil(limit.ttl / 1000)));
    }, done);
  });
}
