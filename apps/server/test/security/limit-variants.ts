import { accessMessages } from "@elo/shared";
import superjson from "superjson";
import { TEST_ORIGIN } from "../support/harness";
import type { RawAnswer, RawExchange } from "../support/raw-http";

/**
 * Ways of writing the same procedure call that a router or a proxy may treat as equal while a
 * naive limiter does not (issue 15, point 2). `target` builds the request target for procedure
 * `p` on a server at `base`; `calls` is how many calls the router sees in it.
 */
export interface UrlVariant {
  name: string;
  target: (p: string, base: string) => string;
  calls: number;
}

const batchOf = (p: string, sep: string) => `${p}${sep}${p}`;

export const URL_VARIANTS: UrlVariant[] = [
  { name: "plain", target: (p) => `/trpc/${p}`, calls: 1 },
  { name: "fragment", target: (p) => `/trpc/${p}#x`, calls: 1 },
  { name: "fragment hiding a query", target: (p) => `/trpc/${p}#?batch=1`, calls: 1 },
  { name: "empty query", target: (p) => `/trpc/${p}?`, calls: 1 },
  { name: "query", target: (p) => `/trpc/${p}?x=1`, calls: 1 },
  { name: "absolute form", target: (p, base) => `${base}/trpc/${p}`, calls: 1 },
  { name: "absolute form, other host, upper-case scheme", target: (p) => `HTTP://elo.example/trpc/${p}`, calls: 1 },
  { name: "trailing slash", target: (p) => `/trpc/${p}/`, calls: 1 },
  { name: "upper-case prefix", target: (p) => `/TRPC/${p}`, calls: 1 },
  { name: "upper-case procedure", target: (p) => `/trpc/${p.toUpperCase()}`, calls: 1 },
  { name: "double slash before", target: (p) => `//trpc/${p}`, calls: 1 },
  { name: "double slash inside", target: (p) => `/trpc//${p}`, calls: 1 },
  { name: "dot segment", target: (p) => `/trpc/./${p}`, calls: 1 },
  { name: "dot-dot segment", target: (p) => `/x/../trpc/${p}`, calls: 1 },
  { name: "semicolon", target: (p) => `/trpc/${p};x`, calls: 1 },
  { name: "percent-encoded dots", target: (p) => `/trpc/${p.replaceAll(".", "%2E")}`, calls: 1 },
  { name: "doubly percent-encoded dots", target: (p) => `/trpc/${p.replaceAll(".", "%252E")}`, calls: 1 },
  { name: "percent-encoded prefix", target: (p) => `/%74rpc/${p}`, calls: 1 },
  { name: "batch", target: (p) => `/trpc/${batchOf(p, ",")}?batch=1`, calls: 2 },
  { name: "batch, percent-encoded comma", target: (p) => `/trpc/${batchOf(p, "%2C")}?batch=1`, calls: 2 },
  { name: "batch, doubly percent-encoded comma", target: (p) => `/trpc/${batchOf(p, "%252C")}?batch=1`, calls: 2 },
  { name: "batch behind a fragment", target: (p) => `/trpc/${batchOf(p, ",")}?batch=1#x`, calls: 2 },
  { name: "batch in absolute form", target: (p, base) => `${base}/trpc/${batchOf(p, ",")}?batch=1`, calls: 2 },
];

export type Outcome = "limited" | "served" | "refused";

/**
 * What the server did with a request: `limited` (429), `served` (tRPC ran the procedure: a result,
 * or an error naming the procedure's path), or `refused` (any other answer: 404, 405, a framework
 * error, the web app's page).
 */
export function outcomeOf(res: RawAnswer): Outcome {
  if (res.status === 429) return "limited";
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return "refused";
  }
  const entries = Array.isArray(body) ? body : [body];
  const ran = entries.some((e: { result?: unknown; error?: { json?: { data?: { path?: unknown; code?: unknown } } } }) => {
    if (e?.result !== undefined) return true;
    const data = e?.error?.json?.data;
    return typeof data?.path === "string" && data.code !== "NOT_FOUND" && data.code !== "METHOD_NOT_SUPPORTED";
  });
  return ran ? "served" : "refused";
}

/** One tRPC mutation as the browser sends it: the procedure, its input, the caller's session cookie. */
export interface MutationCall {
  procedure: string;
  input: unknown;
  cookie: string;
}

const wire = (input: unknown) => superjson.serialize(input);

/**
 * `call` written through `variant` (POST, superjson, the allowed Origin): a batch variant carries the
 * input once per call, as the tRPC client sends a batch.
 */
export function variantMutation(call: MutationCall, variant: UrlVariant, base: string): RawExchange {
  const body = variant.calls === 1 ? wire(call.input) : Object.fromEntries(Array.from({ length: variant.calls }, (_, i) => [i, wire(call.input)]));
  return {
    method: "POST",
    target: variant.target(call.procedure, base),
    headers: { origin: TEST_ORIGIN, "content-type": "application/json", cookie: call.cookie },
    body: JSON.stringify(body),
  };
}

/** `calls` in ONE batch request (at most LIMITS.batchMaxCalls are served). */
export function batchMutation(calls: MutationCall[]): RawExchange {
  return {
    method: "POST",
    target: `/trpc/${calls.map((c) => c.procedure).join(",")}?batch=1`,
    headers: { origin: TEST_ORIGIN, "content-type": "application/json", cookie: calls[0]!.cookie },
    body: JSON.stringify(Object.fromEntries(calls.map((c, i) => [i, wire(c.input)]))),
  };
}

/**
 * What each call of an answer came to: `ok` (a result), the procedure's tRPC error code (CONFLICT,
 * NOT_FOUND...), or `refused <status>` when no procedure was resolved (the router's "Procedimento
 * inexistente", or no tRPC body at all: a 404 page, a 405).
 */
export function callResults(res: RawAnswer): string[] {
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return [`refused ${res.status}`];
  }
  const entries = Array.isArray(body) ? body : [body];
  return entries.map((e: { result?: unknown; error?: { json?: { message?: string; data?: { code?: string; path?: string } } } }) => {
    if (e?.result !== undefined) return "ok";
    const error = e?.error?.json;
    return !error?.data?.code || error.message === accessMessages.unknownProcedure(error.data.path ?? "") ? `refused ${res.status}` : error.data.code;
  });
}
