import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/** A random secret of 25 bytes (200 bits), base32: for session cookies, reset links and API tokens. */
export function generateSecret(): string {
  const bytes = new Uint8Array(25);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** What the database stores instead of the secret. */
export function hashSecret(secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}
