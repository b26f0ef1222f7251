import type { AnyRouter, inferRouterContext } from "@trpc/server";
import type { CreateFastifyContextOptions } from "@trpc/server/adapters/fastify";
import { resolveResponse, type HTTPBaseHandlerOptions } from "@trpc/server/http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { accessMessages } from "@elo/shared";
import { refusalOf } from "./error-handler";
import { sendTrpcError, trpcCodeOf } from "./trpc-error";
import { trpcRequest } from "./trpc-request";

export interface TrpcRouteOptions<TRouter extends AnyRouter> extends HTTPBaseHandlerOptions<TRouter, FastifyRequest> {
  prefix: string;
  createContext: (opts: CreateFastifyContextOptions) => inferRouterContext<TRouter> | Promise<inferRouterContext<TRouter>>;
}

/**
 * tRPC on Fastify as `@trpc/server/adapters/fastify` mounts it (one route `${prefix}/:path`, the
 * bodies handed to tRPC unparsed, tRPC's own `resolveResponse` deciding every answer), except for
 * how a plain JSON answer leaves: the adapter hands Fastify tRPC's fetch `Response`, which Fastify
 * streams out (a web-stream reader, an end-of-stream watcher, chunked encoding, two writes) even
 * for a body of thirty bytes. Here such a body is read as a string and sent with its length, one
 * write; streamed answers (subscriptions as server-sent events, jsonl batches) still go out as
 * the `Response` (decision 150). And the request tRPC reads is a plain object over Node's, not a
 * WHATWG `Request`, whenever Fastify has read its body already (`trpcRequest`, decision 221).
 */
export async function registerTrpcRoute<TRouter extends AnyRouter>(app: FastifyInstance, opts: TrpcRouteOptions<TRouter>) {
  const { prefix, createContext, onError, ...handlerOptions } = opts;
  await app.register(
    async (scope) => {
      // As the adapter does: tRPC reads JSON bodies itself, and form data as the raw stream.
      scope.removeContentTypeParser("application/json");
      scope.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => done(null, body));
      scope.removeContentTypeParser("multipart/form-data");
      scope.addContentTypeParser("multipart/form-data", {}, (_req, body, done) => done(null, body));

      // What fails before tRPC runs (a body over the limit, a content type Fastify does not read, a
      // bug) is answered like tRPC's own refusals: the root handler's mapping, in tRPC's envelope.
      scope.setErrorHandler((error: FastifyError, req, reply) => {
        const { status, message } = refusalOf(error, req, { FST_ERR_CTP_INVALID_MEDIA_TYPE: accessMessages.unsupportedContentType });
        return sendTrpcError(reply, { status, code: trpcCodeOf(status), message, path: (req.params as { path?: string }).path });
      });

      scope.all("/:path", async (req, reply) => {
        const raw = req.raw as typeof req.raw & { body?: unknown };
        if ("body" in req) raw.body = req.body;
        const path = (req.params as { path: string }).path;
        // tRPC serves GET and POST (and HEAD as GET); any other method is the caller's error, a 405
        // naming both (TRACE made undici's Request throw, a logged 500; PUT or OPTIONS read as a 415).
        if (!TRPC_METHODS.has(req.method)) {
          return sendTrpcError(reply.header("allow", "GET, POST"), { status: 405, code: "METHOD_NOT_SUPPORTED", message: accessMessages.wrongMethod, path });
        }
        const request = trpcRequest(raw, reply.raw);
        // RFC 9112 §3.2: a Host that is no valid authority is a 400 (tRPC's adapter threw a 500).
        if (request === null) return sendTrpcError(reply, { status: 400, code: "BAD_REQUEST", message: accessMessages.badHost, path });
        const response = await resolveResponse<TRouter>({
          ...handlerOptions,
          req: request,
          path,
          error: null,
          createContext: ({ info }) => Promise.resolve(createContext({ req, res: reply, info })),
          onError: onError && ((o) => onError({ ...o, req })),
        });
        return sendResponse(reply, response);
      });
    },
    { prefix },
  );
}

const TRPC_METHODS = new Set(["GET", "HEAD", "POST"]);

/** A JSON answer tRPC built from a string (not a jsonl stream, which tRPC marks as chunked). */
function isPlainJson(response: Response): boolean {
  return response.body !== null && response.headers.get("content-type") === "application/json" && !response.headers.has("transfer-encoding");
}

async function sendResponse(reply: FastifyReply, response: Response) {
  if (!isPlainJson(response)) return reply.send(response);
  reply.code(response.status);
  response.headers.forEach((value, name) => void reply.header(name, value));
  return reply.send(await response.text());
}
