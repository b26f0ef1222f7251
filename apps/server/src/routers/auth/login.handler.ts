import { authMessages, LIMITS, type LoginInput } from "@elo/shared";
import { sessionCookieName } from "../../auth/cookie";
import { minutesUntil, recordAttempt } from "../../auth/lockout";
import { recordFailedLogin, recordSuccessfulLogin, reserveLogin } from "../../auth/login-store";
import { verifyDummy, verifyPassword } from "../../auth/password";
import { newSession } from "../../auth/session";
import { logins } from "../../lib/metrics";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";

/** "Conta temporariamente bloqueada": the login lockout's answer (also for a wrong password re-typed to confirm a deletion). */
export const blockedError = (minutes: number) =>
  new AppError("TOO_MANY_REQUESTS", { title: authMessages.blockedTitle, description: authMessages.blockedDescription(minutes) }, { blocked: true, minutes });

/**
 * Signs in with e-mail and password. Unknown e-mails get the same answers and about the same time
 * as wrong passwords (a dummy hash is checked), and share the per-e-mail lockout. The attempt is
 * reserved in the lockout window before the password is checked, so at most five checks run in a
 * window however many attempts arrive together (decision 105). Two statements either way: one
 * read-and-reserve before argon2, one write after (decision 089).
 */
export async function loginHandler({ ctx, input }: { ctx: Context; input: LoginInput }) {
  const { email, password } = input;
  const now = ctx.clock.now();
  ctx.trace?.mark("handler");

  const { granted, attempt, blockedUntil, user } = await reserveLogin(ctx.db, email, now);
  ctx.trace?.mark("reserved");
  if (!granted) {
    await recordAttempt(ctx.db, email, false, ctx.userAgent, now);
    logins.inc({ outcome: "locked" });
    throw blockedError(minutesUntil(blockedUntil ?? now, now));
  }

  const ok = user ? await verifyPassword(user.passwordHash, password) : (await verifyDummy(password), false);
  ctx.trace?.mark("verified");
  if (!ok || !user) {
    await recordFailedLogin(ctx.db, email, ctx.userAgent, now);
    if (blockedUntil && blockedUntil > now) {
      logins.inc({ outcome: "locked" });
      throw blockedError(minutesUntil(blockedUntil, now));
    }
    logins.inc({ outcome: "refused" });
    const left = LIMITS.loginMaxFailures - attempt;
    throw new AppError(
      "UNAUTHORIZED",
      { title: authMessages.invalidCredentialsTitle, description: left > 1 ? authMessages.attemptsLeft(left) : authMessages.lastAttempt },
      { attemptsLeft: left },
    );
  }

  const { token, session } = newSession(ctx.clock, user.id);
  ctx.trace?.mark("token");
  await recordSuccessfulLogin(ctx.db, email, session, ctx.userAgent, now);
  ctx.trace?.mark("written");
  ctx.cookies.set(sessionCookieName(ctx.config), token, session.expiresAt);
  logins.inc({ outcome: "ok" });
  return { isAdmin: user.isAdmin, profileType: user.profileType };
}
