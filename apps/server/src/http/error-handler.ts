import { accessMessages } from "@elo/shared";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { TRPC_PREFIX } from "./routed";
import { sendTrpcError, trpcCodeOf } from "./trpc-error";

/** Fastify's own refusals (its English `message`), by code, in Portuguese. */
const REFUSALS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: accessMessages.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: accessMessages.unsupportedBody,
  FST_ERR_CTP_INVALID_JSON_BODY: accessMessages.unreadableBody,
  FST_ERR_CTP_EMPTY_JSON_BODY: accessMessages.unreadableBody,
};

interface Refusal {
  status: number;
  message: string;
}

/**
 * What failed before a route answered, as the status to answer and a Portuguese message
 * (decisions 223 and 225): Fastify's refusals (a body over the limit, bad JSON, a content type it
 * does not read) keep their 4xx status; anything else is a bug, logged with the error and answered
 * with a 5xx and no internal text. `own` replaces a refusal's message by Fastify code where a
 * scope has a more precise one.
 */
export function refusalOf(error: FastifyError, req: FastifyRequest, own: Record<string, string> = {}): Refusal {
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, message: own[error.code] ?? REFUSALS[error.code] ?? accessMessages.badRequest };
  }
  req.log.error({ err: error }, "request failed");
  return { status: status !== undefined && status >= 500 ? status : 500, message: accessMessages.unexpected };
}

/** Outside /trpc (decision 225): the 404's shape, `{ error: "<Portuguese>" }`. /trpc answers in tRPC's (trpc-route.ts). */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    const { status, message } = refusalOf(error, req);
    return reply.code(status).send({ error: message });
  });
}

/**
 * Fastify's refusals of the request's path itself, answered before any route or hook runs: a
 * malformed percent-encoding (`/escolas%`, FST_ERR_BAD_URL, 400) and a segment over the router's
 * limit (FST_ERR_MAX_PARAM_LENGTH, 414). Fastify wrote its English JSON, echoing the path, without
 * the security headers; now the same mapping and shapes as above (tRPC's envelope under /trpc/),
 * with `headers`, the security headers the hooks would have set. For Fastify's `frameworkErrors`.
 */
export function answerFrameworkError(headers: Record<string, string>) {
  return (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const { status, message } = refusalOf(error, req);
    reply.headers(headers);
    if (req.url.startsWith(`${TRPC_PREFIX}/`)) return sendTrpcError(reply, { status, code: trpcCodeOf(status), message, path: undefined });
    return reply.code(status).send({ error: message });
  };
}
