import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { incomingMessageToRequest } from "@trpc/server/adapters/node-http";

/**
 * The request as tRPC's `resolveResponse` reads it: method, URL, `headers.get`/`has`, `signal` and,
 * for a JSON body, `json()`. tRPC's node adapter builds a WHATWG `Request` for this (undici: a
 * `Headers` copy of every header, a `ReadableStream` around the body Fastify already read, the
 * body decoded again), about a tenth of a small request's CPU (decision 221). A GET, a HEAD, or a
 * body Fastify read as a string (the scope's JSON parser) gets this plain object instead; anything
 * else (multipart uploads, whose body is the raw stream) gets the adapter's `Request`, unchanged.
 * Null when the request's URL does not parse (a malformed Host): the caller answers 400 (decision 223).
 */
export function trpcRequest(raw: IncomingMessage & { body?: unknown }, res: ServerResponse): Request | null {
  const url = absoluteUrl(raw);
  if (url === null) return null;
  const body = raw.body;
  const plain = raw.method === "GET" || raw.method === "HEAD" || typeof body === "string";
  if (!plain) return incomingMessageToRequest(raw, res, { maxBodySize: null });
  return {
    method: raw.method,
    url,
    headers: new NodeHeaders(raw.headers),
    signal: abortedWithResponse(raw, res),
    // As undici's `Request.json()` reads it: a byte-order mark is skipped, bad JSON throws (tRPC answers PARSE_ERROR).
    json: async () => JSON.parse(typeof body === "string" ? stripBom(body) : ""),
  } as unknown as Request;
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The URL tRPC's adapter makes of the request (its `createURL`), or null where it would throw. */
function absoluteUrl(raw: IncomingMessage): string | null {
  const encrypted = "encrypted" in raw.socket && Boolean(raw.socket.encrypted);
  const protocol = raw.headers[":scheme"] === "https" || encrypted ? "https:" : "http:";
  const host = raw.headers.host ?? (raw.headers[":authority"] as string | undefined) ?? "localhost";
  try {
    return new URL(raw.url ?? "", `${protocol}//${host}`).href;
  } catch {
    return null;
  }
}

/** Aborted when the client goes away before its answer is written, as the adapter's signal is. */
function abortedWithResponse(raw: IncomingMessage, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const onAbort = () => {
    res.off("close", onClose);
    raw.off("aborted", onAbort);
    controller.abort();
  };
  const onClose = () => {
    if (res.writableEnded) raw.off("aborted", onAbort);
    else onAbort();
  };
  res.once("close", onClose);
  raw.once("aborted", onAbort);
  return controller.signal;
}

/** `Headers`' reading half over Node's already lower-cased header object. */
export class NodeHeaders {
  readonly #raw: IncomingHttpHeaders;
  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }
}
