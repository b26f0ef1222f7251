import { authMessages, LIMITS } from "@elo/shared";
import { schema } from "@elo/db";
import { and, eq, gt, isNull } from "drizzle-orm";
import { clearFailures } from "../../auth/lockout";
import { hashPassword, verifyPassword } from "../../auth/password";
import { isWeakPassword } from "../../auth/password-strength";
import { invalidateUserSessions, revokeUserApiTokens } from "../../auth/session";
import { generateSecret, hashSecret } from "../../auth/tokens";
import { enqueueTemplate, passwordResetEmail } from "../../mail/templates";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";

const TOKEN_MS = LIMITS.resetTokenMinutes * 60_000;

const invalidLink = () => new AppError("BAD_REQUEST", { title: authMessages.invalidLinkTitle, description: authMessages.invalidLinkDescription }, { invalidLink: true });

/**
 * Sends a recovery link when the e-mail has an account; the answer is the same either way, and so
 * is its time: both look the address up, and the link is made and mailed only after the answer has
 * gone out (issue 15: the known address used to answer twice as slowly). A new request replaces
 * the older links of that account.
 */
export async function requestPasswordResetHandler({ ctx, input }: { ctx: Context; input: { email: string } }) {
  const [user] = await ctx.db
    .select({ id: schema.users.id, email: schema.users.email, name: schema.profiles.fullName })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userId, schema.users.id))
    .where(eq(schema.users.email, input.email));
  if (user) ctx.afterAnswer("password-reset e-mail", () => sendResetLink(ctx, user));
  return { ok: true as const };
}

async function sendResetLink(ctx: Context, user: { id: string; email: string; name: string | null }) {
  const token = generateSecret();
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.delete(schema.passwordResetTokens).where(eq(schema.passwordResetTokens.userId, user.id));
    await tx.insert(schema.passwordResetTokens).values({ id: hashSecret(token), userId: user.id, expiresAt: new Date(now.getTime() + TOKEN_MS), createdAt: now });
    const resetUrl = `${ctx.config.publicOrigin}/reset-password?token=${encodeURIComponent(token)}`;
    await enqueueTemplate(ctx, tx, passwordResetEmail, user.email, { userId: user.id }, { name: user.name, resetUrl });
  });
}

/** The unused, unexpired token row behind a link, or null. */
async function findUsableToken(ctx: Context, token: string) {
  const [row] = await ctx.db
    .select({ userId: schema.passwordResetTokens.userId, email: schema.users.email, passwordHash: schema.users.passwordHash })
    .from(schema.passwordResetTokens)
    .innerJoin(schema.users, eq(schema.users.id, schema.passwordResetTokens.userId))
    .where(and(eq(schema.passwordResetTokens.id, hashSecret(token)), isNull(schema.passwordResetTokens.usedAt), gt(schema.passwordResetTokens.expiresAt, ctx.clock.now())));
  return row ?? null;
}

/** Whether a recovery link can still be used (the page checks before showing the form). */
export async function checkResetTokenHandler({ ctx, input }: { ctx: Context; input: { token: string } }) {
  return { valid: (await findUsableToken(ctx, input.token)) !== null };
}

/**
 * Sets a new password from a recovery link. The link is spent in one conditional update, so of two
 * parallel redemptions exactly one wins; every session of the account is revoked and the login
 * block is lifted.
 */
export async function resetPasswordHandler({ ctx, input }: { ctx: Context; input: { token: string; password: string } }) {
  const found = await findUsableToken(ctx, input.token);
  if (!found) throw invalidLink();
  if (await verifyPassword(found.passwordHash, input.password)) {
    throw new AppError("BAD_REQUEST", { title: authMessages.resetErrorTitle, description: authMessages.samePassword }, { samePassword: true });
  }
  if (isWeakPassword(input.password, [found.email])) {
    throw new AppError("BAD_REQUEST", { title: authMessages.resetErrorTitle, description: authMessages.weakResetPassword }, { weakPassword: true });
  }
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(schema.passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(schema.passwordResetTokens.id, hashSecret(input.token)), isNull(schema.passwordResetTokens.usedAt), gt(schema.passwordResetTokens.expiresAt, now)))
      .returning({ userId: schema.passwordResetTokens.userId });
    if (!spent) throw invalidLink();
    await tx.update(schema.users).set({ passwordHash, updatedAt: now }).where(eq(schema.users.id, spent.userId));
    await tx.delete(schema.passwordResetTokens).where(and(eq(schema.passwordResetTokens.userId, spent.userId), isNull(schema.passwordResetTokens.usedAt)));
    await invalidateUserSessions(tx, spent.userId);
    await revokeUserApiTokens(tx, spent.userId, now);
    await clearFailures(tx, found.email);
  });
  return { ok: true as const };
}
