import type { FastifyRequest } from "fastify";

/** Where the tRPC adapter is mounted; it serves one route, `${TRPC_PREFIX}/:path`. */
export const TRPC_PREFIX = "/trpc";
const TRPC_ROUTE = `${TRPC_PREFIX}/:path`;

/**
 * The procedure calls of a request as the router resolved them, never as the raw URL spells them
 * (`#…`, the absolute form, `%74rpc` and `%252E` all reach the same procedure: issue 15). Fastify
 * routes before the onRequest hooks and decodes `path` once; the tRPC adapter decodes it again and
 * splits it on ',' for a batch, and so does this. Splitting every request, batched or not, can only
 * count more: a single call whose name holds a comma matches no procedure. Empty on other routes and
 * when the second decoding fails (tRPC then answers 400 without running anything).
 */
export function routedCalls(req: FastifyRequest): string[] {
  if (req.routeOptions.url !== TRPC_ROUTE) return [];
  try {
    return decodeURIComponent((req.params as { path: string }).path).split(",");
  } catch {
    return [];
  }
}

/** Whether tRPC reads the request as a batch: it parses the target with WHATWG URL (so `#?batch=1` is not one). */
export function isBatchRequest(req: FastifyRequest): boolean {
  try {
    return new URL(req.url, "http://localhost").searchParams.get("batch") === "1";
  } catch {
    return false;
  }
}

/**
 * The path of a request target, lower-case, decoded, without query or fragment and with repeated
 * slashes folded: what the not-found handler compares with the API prefixes, so that an API path in
 * absolute form or with odd spelling gets the JSON 404 rather than the web app.
 */
export function comparablePath(target: string): string {
  let path = target;
  if (!path.startsWith("/")) {
    try {
      path = new URL(path).pathname;
    } catch {
      // Not a URL either: compared as it is.
    }
  }
  path = path.split(/[?#]/, 1)[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed escapes stay as they are.
  }
  return path.replace(/\/{2,}/g, "/").toLowerCase();
}
