import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, docs/decisions/202): the secret is
 * `whsec_` + base64 of 32 random bytes; a signature is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac("sha256", secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The three headers of a delivery; every secret given signs (the new one and, for 24 h after a rotation, the old one). */
export function webhookHeaders(secrets: string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": secrets.map((s) => signWebhook(s, id, timestampSeconds, body)).join(" "),
  };
}
