import { accessMessages } from "@elo/shared";
import type { FastifyInstance } from "fastify";
import { bearerToken } from "../auth/api-token";
import type { Config } from "../config";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence: every state-changing request must carry an allowed Origin (the configured
 * canonical origin, never one derived from the Host header). Requests authenticated only by a
 * bearer token, with no cookie, are exempt: a browser cannot be tricked into sending them.
 */
export function registerOriginCheck(app: FastifyInstance, config: Config) {
  const allowed = new Set(config.allowedOrigins);
  app.addHook("onRequest", (req, reply, done) => {
    if (SAFE_METHODS.has(req.method)) return done();
    const bearerOnly = bearerToken(req.headers.authorization) !== undefined && !req.headers.cookie;
    const origin = req.headers.origin;
    if (bearerOnly || (origin && allowed.has(origin))) return done();
    reply.code(403).send({ error: { message: accessMessages.invalidOrigin, code: "FORBIDDEN" } });
  });
}
