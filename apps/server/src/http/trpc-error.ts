import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { FastifyReply } from "fastify";

interface TrpcRefusal {
  status: number;
  code: TRPC_ERROR_CODE_KEY;
  message: string;
  /** The procedure of each call; an array answers a batch (one entry per call), a string one call. */
  path: string | undefined | string[];
}

/**
 * A refusal sent before tRPC runs (a rate limit, a malformed request), shaped as the router's own
 * errors are (superjson's `json` envelope, the Portuguese `toast`), so the typed client and the
 * web's toast read it like any procedure error.
 */
export function sendTrpcError(reply: FastifyReply, { status, code, message, path }: TrpcRefusal) {
  const error = (p: string | undefined) => ({
    error: { json: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: status, path: p, toast: { title: message }, fieldErrors: null } } },
  });
  return reply
    .code(status)
    .header("content-type", "application/json")
    .send(JSON.stringify(Array.isArray(path) ? path.map(error) : error(path)));
}

/** The tRPC code of a refusal answered before tRPC ran. */
export function trpcCodeOf(status: number): TRPC_ERROR_CODE_KEY {
  if (status === 413) return "PAYLOAD_TOO_LARGE";
  if (status === 415) return "UNSUPPORTED_MEDIA_TYPE";
  return status < 500 ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR";
}
