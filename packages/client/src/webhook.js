// The receiving half of Elo Escolar's webhooks (Standard Webhooks: webhook-id, webhook-timestamp,
// webhook-signature = space-separated "v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>").
import { createHmac, timingSafeEqual } from "node:crypto";

/** Thrown by verifyWebhook when a delivery must be refused (answer it with 400). */
export class WebhookVerificationError extends Error {
  constructor(message) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

function header(headers, name) {
  if (headers && typeof headers.get === "function") return headers.get(name) ?? undefined;
  const value = headers?.[name] ?? headers?.[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies one delivery and returns its event `{ id, type, timestamp, data }`. `body` must be the
 * raw request body (string or bytes) exactly as received; `headers` a plain object (Node's
 * `req.headers`) or a fetch `Headers`. Refused (WebhookVerificationError) when a header is missing,
 * the timestamp is more than `toleranceSeconds` away from now, or no signature matches the secret.
 */
export function verifyWebhook(secret, headers, body, { toleranceSeconds = 300, now = Date.now() } = {}) {
  if (typeof secret !== "string" || secret.length === 0) throw new TypeError('verifyWebhook: "secret" must be the endpoint\'s whsec_… secret');
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header");
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) throw new WebhookVerificationError("invalid webhook-timestamp");
  if (Math.abs(now / 1000 - seconds) > toleranceSeconds) throw new WebhookVerificationError("webhook-timestamp outside the tolerance (stale or from the future)");
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${text}`).digest();
  const matches = String(signatures)
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .some((s) => {
      const given = Buffer.from(s.slice(3), "base64");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!matches) throw new WebhookVerificationError("no signature matches this secret");
  let event;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
  return { id, type: event.type, timestamp: event.timestamp, data: event.data };
}
