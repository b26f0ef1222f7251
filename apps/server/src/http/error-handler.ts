import { accessMessages } from "@elo/shared";
import type { FastifyError, FastifyInstance } from "fastify";

/** Fastify's own refusals (its English `message`), by code, in Portuguese. */
const REFUSALS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: accessMessages.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: accessMessages.unsupportedBody,
  FST_ERR_CTP_INVALID_JSON_BODY: accessMessages.unreadableBody,
  FST_ERR_CTP_EMPTY_JSON_BODY: accessMessages.unreadableBody,
};

/**
 * What fails outside /trpc before a route answers (decision 225): Fastify's refusals (a body over
 * the limit, bad JSON, a content type it does not read) and any bug. They answered Fastify's
 * English JSON, and a 5xx carried the error's own message (internal text) to a stranger; now the
 * 404's shape, `{ error: "<Portuguese>" }`, with the status kept. /trpc has its own (trpc-route.ts).
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.code(status).send({ error: REFUSALS[error.code] ?? accessMessages.badRequest });
    }
    req.log.error({ err: error }, "request failed");
    return reply.code(status !== undefined && status >= 500 ? status : 500).send({ error: accessMessages.unexpected });
  });
}
