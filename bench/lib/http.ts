import autocannon, { type Options } from "autocannon";

export interface HttpResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
}

/** An address per simulated client: the production server trusts its proxy's X-Forwarded-For, as behind a load balancer. */
export const clientIp = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** One autocannon run; the rate counts only 2xx answers. */
export async function load(opts: Options): Promise<HttpResult> {
  const r = await autocannon({ timeout: 30, ...opts });
  const ok = r["2xx"];
  return { rps: ok / r.duration, p50: r.latency.p50, p99: r.latency.p99, ok, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

/** A tRPC mutation body with the superjson transformer. */
export const trpcBody = (input: unknown) => JSON.stringify({ json: input });
