import { schema, type Database } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Clock } from "../lib/clock";
import { loadSessionUser, type SessionUser } from "./session";
import { generateSecret, hashSecret } from "./tokens";

/** Every token starts with this, so leaked tokens are easy to recognise (and to scan for). */
export const API_TOKEN_PREFIX = "elo_";
const TOKEN_SHAPE = /^elo_[a-z2-7]{40}$/;
/** last_used_at is written at most once per this interval per token. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A new secret for the user to copy, and the hash the database keeps. */
export function newApiToken() {
  const token = API_TOKEN_PREFIX + generateSecret();
  return { token, tokenHash: hashSecret(token) };
}

/** The bearer token of an `Authorization` header, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer(?:\s+(.*))?$/i.exec(header.trim()) : null;
  return match ? (match[1] ?? "").trim() : undefined;
}

/** Whether a string has the shape of one of our tokens (cheap check before any query). */
export const isWellFormedApiToken = (token: string) => TOKEN_SHAPE.test(token);

/**
 * The user behind a token, or null when it is malformed, unknown, revoked or expired. Records the
 * use at most once a minute so busy scripts do not write on every request.
 */
export async function authenticateApiToken(db: Database, clock: Clock, token: string): Promise<{ user: SessionUser; tokenId: string } | null> {
  if (!isWellFormedApiToken(token)) return null;
  const [row] = await db
    .select({ id: schema.apiTokens.id, userId: schema.apiTokens.userId, lastUsedAt: schema.apiTokens.lastUsedAt, expiresAt: schema.apiTokens.expiresAt, revokedAt: schema.apiTokens.revokedAt })
    .from(schema.apiTokens)
    .where(eq(schema.apiTokens.tokenHash, hashSecret(token)));
  const now = clock.now();
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) return null;
  const user = await loadSessionUser(db, row.userId);
  if (!user) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.update(schema.apiTokens).set({ lastUsedAt: now }).where(eq(schema.apiTokens.id, row.id));
  }
  return { user, tokenId: row.id };
}
