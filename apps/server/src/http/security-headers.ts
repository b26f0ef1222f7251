import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";
import type { Config } from "../config";
import { presignedOrigin } from "../storage/s3-storage";

/**
 * Helmet's security headers on every response. Our configuration has no per-request part (no CSP
 * nonce), so helmet runs once, at start-up, and its headers are added to each reply in one call:
 * @fastify/helmet rebuilt the middleware and re-parsed the CSP on every request, and the
 * middleware's dozen `setHeader` calls cost more than the procedure of a small request
 * (docs/decisions/101-security-headers-computed-once.md).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, "isProduction" | "s3">) {
  const headers = securityHeaders(config);
  app.addHook("onRequest", (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet sets with our configuration, read off one run of its middleware. */
export function securityHeaders(config: Pick<Config, "isProduction" | "s3">): Record<string, string> {
  const middleware = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Avatars come from the bucket when S3 is configured; a plain-http one (MinIO in compose) needs naming.
        imgSrc: ["'self'", "data:", "blob:", "https:", ...(config.s3 ? [presignedOrigin(config.s3)] : [])],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameSrc: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}
