import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { BlockedAddressError, endpointUrlProblem, guardedLookup, isPublicAddress } from "./address-guard";

/** Each delivery's whole exchange (connect, answer, first bytes) must end within this. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an answer the log keeps. */
export const ANSWER_BYTES = 500;

export interface PostResult {
  /** The HTTP status; null when there was no answer (refused, timeout, network error). */
  statusCode: number | null;
  latencyMs: number;
  /** The first 500 bytes of the answer (UTF-8, lossy). */
  response: string;
  error: string | null;
}

export interface PostOptions {
  production: boolean;
  timeoutMs?: number;
  /** Name resolution used at connect time (tests answer for names); always checked in production. */
  resolve?: Parameters<typeof guardedLookup>[0];
}

/**
 * POSTs one signed delivery. Redirects are not followed (a 3xx is a failed attempt). In production
 * the address is judged at connect time by `guardedLookup` (literal IPs here, since Node skips
 * `lookup` for them), so a name that resolves to a private address, now or after a DNS change, is refused.
 */
export function postWebhook(rawUrl: string, headers: Record<string, string>, body: string, opts: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, response: string, error: string | null): PostResult => ({
    statusCode,
    latencyMs: Math.round(performance.now() - started),
    response,
    error,
  });
  const problem = endpointUrlProblem(rawUrl, opts.production);
  if (problem) return Promise.resolve(done(null, "", problem));
  const url = new URL(rawUrl);
  const literal = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (opts.production && isIP(literal) && !isPublicAddress(literal)) return Promise.resolve(done(null, "", new BlockedAddressError(literal).message));

  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const req = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "EloEscolar-Webhooks/1" },
        // Only production dials through the guard: tests and development deliver to localhost.
        ...(opts.production || opts.resolve ? { lookup: guardedLookup(opts.resolve) as never } : {}),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const end = () => finish(done(res.statusCode ?? null, Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString("utf8"), null));
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= ANSWER_BYTES) end();
        });
        res.on("end", end);
        res.on("error", end);
      },
    );
    const timer = setTimeout(() => finish(done(null, "", `timeout after ${opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS} ms`)), opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    req.on("error", (error) => finish(done(null, "", error instanceof BlockedAddressError ? error.message : String(error.message ?? error).slice(0, 300))));
    req.end(body);
  });
}
