import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { webhookMessages as m } from "@elo/shared";

/**
 * SSRF guard of the webhook sender (docs/decisions/203). Only public unicast addresses may receive
 * a delivery in production: loopback, private, link-local (169.254.169.254 included), ULA, CGNAT,
 * multicast, reserved, and the IPv4 inside IPv4-mapped IPv6 addresses are refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === "unicast";
}

const isLocalName = (host: string) => host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "[::1]";

/** Why a URL may not be an endpoint (a Portuguese message), or null. Names are checked again at connect time. */
export function endpointUrlProblem(raw: string, production: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return m.urlInvalid;
  }
  if (url.username || url.password) return m.urlCredentials;
  const host = url.hostname.toLowerCase();
  if (url.protocol === "http:") {
    if (production || !isLocalName(host)) return m.urlHttps;
    return null;
  }
  if (url.protocol !== "https:") return m.urlHttps;
  if (!production) return null;
  const literal = host.startsWith("[") ? host.slice(1, -1) : host;
  if (isIP(literal) && !isPublicAddress(literal)) return m.urlPrivate;
  if (isLocalName(host)) return m.urlPrivate;
  return null;
}

export class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`refused: ${address} is not a public address`);
    this.name = "BlockedAddressError";
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls connect: resolves the name and refuses it unless every answer is public.
 * It runs at connect time, so a DNS answer that changes between the URL's check and the connection
 * is judged by the address actually dialled. `resolve` lets tests answer for a name.
 */
export function guardedLookup(resolve: typeof dnsLookup = dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = addresses as LookupAddress[];
      const blocked = list.find((a) => !isPublicAddress(a.address));
      if (blocked || list.length === 0) return callback(new BlockedAddressError(blocked?.address ?? hostname), "", 4);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
