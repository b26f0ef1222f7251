import { schema } from "@elo/db";
import { API_TOKEN_MAX_ACTIVE, apiTokenMessages, type createApiTokenInput, type revokeApiTokenInput } from "@elo/shared";
import { and, count, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { z } from "zod";
import { newApiToken } from "../../auth/api-token";
import type { SessionUser } from "../../auth/session";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";

type Authed = { ctx: Context & { user: SessionUser } };
const DAY = 24 * 60 * 60 * 1000;

const activeTokensOf = (userId: string, now: Date) =>
  and(eq(schema.apiTokens.userId, userId), isNull(schema.apiTokens.revokedAt), or(isNull(schema.apiTokens.expiresAt), gt(schema.apiTokens.expiresAt, now)));

/**
 * Creates a token and returns its secret, the only time it is ever shown. Only a browser session
 * gets here (sessionOnlyProcedure): a leaked token must not be able to mint more of itself.
 */
export async function createApiToken({ ctx, input }: Authed & { input: z.output<typeof createApiTokenInput> }) {
  const now = ctx.clock.now();
  const [active] = await ctx.db.select({ n: count() }).from(schema.apiTokens).where(activeTokensOf(ctx.user.id, now));
  if ((active?.n ?? 0) >= API_TOKEN_MAX_ACTIVE) {
    throw new AppError("BAD_REQUEST", { title: apiTokenMessages.createErrorTitle, description: apiTokenMessages.limitReached(API_TOKEN_MAX_ACTIVE) });
  }
  const { token, tokenHash } = newApiToken();
  const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY) : null;
  const [row] = await ctx.db
    .insert(schema.apiTokens)
    .values({ userId: ctx.user.id, name: input.name, tokenHash, createdAt: now, expiresAt })
    .returning({ id: schema.apiTokens.id, name: schema.apiTokens.name, createdAt: schema.apiTokens.createdAt, expiresAt: schema.apiTokens.expiresAt });
  return { ...row!, token };
}

/** The caller's tokens, newest first, with their state; never the secret or its hash. */
export async function listApiTokens({ ctx }: Authed) {
  const now = ctx.clock.now();
  const rows = await ctx.db
    .select({
      id: schema.apiTokens.id,
      name: schema.apiTokens.name,
      createdAt: schema.apiTokens.createdAt,
      lastUsedAt: schema.apiTokens.lastUsedAt,
      expiresAt: schema.apiTokens.expiresAt,
      revokedAt: schema.apiTokens.revokedAt,
    })
    .from(schema.apiTokens)
    .where(eq(schema.apiTokens.userId, ctx.user.id))
    .orderBy(desc(schema.apiTokens.createdAt));
  return rows.map((r) => ({
    ...r,
    status: r.revokedAt ? ("revoked" as const) : r.expiresAt && r.expiresAt <= now ? ("expired" as const) : ("active" as const),
    current: r.id === ctx.apiTokenId,
  }));
}

/** Revokes one of the caller's tokens; another user's token is "not found". */
export async function revokeApiToken({ ctx, input }: Authed & { input: z.output<typeof revokeApiTokenInput> }) {
  const [row] = await ctx.db
    .select({ id: schema.apiTokens.id, revokedAt: schema.apiTokens.revokedAt })
    .from(schema.apiTokens)
    .where(and(eq(schema.apiTokens.id, input.id), eq(schema.apiTokens.userId, ctx.user.id)));
  if (!row) throw new AppError("NOT_FOUND", { title: apiTokenMessages.revokeErrorTitle, description: apiTokenMessages.notFound });
  if (!row.revokedAt) {
    await ctx.db
      .update(schema.apiTokens)
      .set({ revokedAt: ctx.clock.now() })
      .where(and(eq(schema.apiTokens.id, row.id), eq(schema.apiTokens.userId, ctx.user.id), isNull(schema.apiTokens.revokedAt)));
  }
  return { ok: true as const };
}
