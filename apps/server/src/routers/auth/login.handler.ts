import { authMessages, LIMITS, type LoginInput } from "@elo/shared";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { sessionCookieName } from "../../auth/cookie";
import { clearFailures, lockState, minutesUntil, recordAttempt, recordFailure } from "../../auth/lockout";
import { verifyDummy, verifyPassword } from "../../auth/password";
import { createSession, loadSessionUser } from "../../auth/session";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";

const blockedError = (minutes: number) =>
  new AppError("TOO_MANY_REQUESTS", { title: authMessages.blockedTitle, description: authMessages.blockedDescription(minutes) }, { blocked: true, minutes });

/**
 * Signs in with e-mail and password. Unknown e-mails get the same answers and about the same time
 * as wrong passwords (a dummy hash is checked), and share the per-e-mail lockout.
 */
export async function loginHandler({ ctx, input }: { ctx: Context; input: LoginInput }) {
  const { email, password } = input;
  const now = ctx.clock.now();

  const lock = await lockState(ctx.db, email, now);
  if (lock.blocked) {
    await recordAttempt(ctx.db, email, false, ctx.userAgent, now);
    throw blockedError(lock.minutesLeft);
  }

  const [user] = await ctx.db.select({ id: schema.users.id, passwordHash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.email, email));
  const ok = user ? await verifyPassword(user.passwordHash, password) : (await verifyDummy(password), false);
  await recordAttempt(ctx.db, email, ok, ctx.userAgent, now);

  if (!ok || !user) {
    const failure = await recordFailure(ctx.db, email, now);
    if (failure.blockedUntil && failure.blockedUntil > now) throw blockedError(minutesUntil(failure.blockedUntil, now));
    const left = LIMITS.loginMaxFailures - failure.failedCount;
    throw new AppError(
      "UNAUTHORIZED",
      { title: authMessages.invalidCredentialsTitle, description: left > 1 ? authMessages.attemptsLeft(left) : authMessages.lastAttempt },
      { attemptsLeft: left },
    );
  }

  await clearFailures(ctx.db, email);
  const { token, session } = await createSession(ctx.db, ctx.clock, user.id, ctx.userAgent);
  ctx.cookies.set(sessionCookieName(ctx.config), token, session.expiresAt);
  const me = await loadSessionUser(ctx.db, user.id);
  return { isAdmin: me?.isAdmin ?? false, profileType: me?.profileType ?? null };
}
