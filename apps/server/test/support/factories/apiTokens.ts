import { schema } from "@elo/db";
import { newApiToken } from "../../../src/auth/api-token";
import type { Harness } from "../harness";

/** Inserts an API token for a user and returns its secret (as the create procedure would show it). */
export async function createApiToken(h: Pick<Harness, "db" | "clock">, userId: string, opts: { name?: string; expiresAt?: Date | null } = {}) {
  const { token, tokenHash } = newApiToken();
  const [row] = await h.db
    .insert(schema.apiTokens)
    .values({ userId, name: opts.name ?? "Script de teste", tokenHash, createdAt: h.clock.now(), expiresAt: opts.expiresAt ?? null })
    .returning({ id: schema.apiTokens.id });
  return { id: row!.id, token };
}
