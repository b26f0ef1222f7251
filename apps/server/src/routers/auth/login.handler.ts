import { authMessages, LIMITS, type LoginInput } from "@elo/shared";
import { sessionCookieName } from "../../auth/cookie";
import { minutesUntil, recordAttempt, recordFailure } from "../../auth/lockout";
import { readLogin, recordSuccessfulLogin } from "../../auth/login-store";
import { verifyDummy, verifyPassword } from "../../auth/password";
import { newSession } from "../../auth/session";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";

/** "Conta temporariamente bloqueada": the login lockout's answer (also for a wrong password re-typed to confirm a deletion). */
export const blockedError = (minutes: number) =>
  new AppError("TOO_MANY_REQUESTS", { title: authMessages.blockedTitle, description: authMessages.blockedDescription(minutes) }, { blocked: true, minutes });

/**
 * Signs in with e-mail and password. Unknown e-mails get the same answers and about the same time
 * as wrong passwords (a dummy hash is checked), and share the per-e-mail lockout. A successful
 * login is two statements: one read before argon2, one write after (decision 089).
 */
export async function loginHandler({ ctx, input }: { ctx: Context; input: LoginInput }) {
  const { email, password } = input;
  const now = ctx.clock.now();

  const { blockedUntil, user } = await readLogin(ctx.db, email);
  if (blockedUntil && blockedUntil > now) {
    await recordAttempt(ctx.db, email, false, ctx.userAgent, now);
    throw blockedError(minutesUntil(blockedUntil, now));
  }

  const ok = user ? await verifyPassword(user.passwordHash, password) : (await verifyDummy(password), false);
  if (!ok || !user) {
    await recordAttempt(ctx.db, email, false, ctx.userAgent, now);
    const failure = await recordFailure(ctx.db, email, now);
    if (failure.blockedUntil && failure.blockedUntil > now) throw blockedError(minutesUntil(failure.blockedUntil, now));
    const left = LIMITS.loginMaxFailures - failure.failedCount;
    throw new AppError(
      "UNAUTHORIZED",
      { title: authMessages.invalidCredentialsTitle, description: left > 1 ? authMessages.attemptsLeft(left) : authMessages.lastAttempt },
      { attemptsLeft: left },
    );
  }

  const { token, session } = newSession(ctx.clock, user.id);
  await recordSuccessfulLogin(ctx.db, email, session, ctx.userAgent, now);
  ctx.cookies.set(sessionCookieName(ctx.config), token, session.expiresAt);
  return { isAdmin: user.isAdmin, profileType: user.profileType };
}
