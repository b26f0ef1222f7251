import { schema } from "@elo/db";
import { LIMITS, privacyMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { minutesUntil, recordAttempt, recordFailure } from "../../auth/lockout";
import { verifyPassword } from "../../auth/password";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import { blockedError } from "../auth/login.handler";

/**
 * Checks the signed-in user's current password before an irreversible action, under the login
 * lockout of the e-mail. The attempt is counted *before* the password is checked: parallel guesses
 * each take their own place in the count, so once the e-mail is blocked none is checked at all,
 * however many arrive together (a stolen session cannot guess the password here instead of on
 * /login). The deletion that follows a right password removes the count with the account.
 */
export async function confirmCurrentPassword(ctx: Pick<Context, "db" | "clock" | "userAgent">, user: { id: string; email: string }, password: string) {
  const now = ctx.clock.now();
  const count = await recordFailure(ctx.db, user.email, now);
  if (count.failedCount > LIMITS.loginMaxFailures && count.blockedUntil && count.blockedUntil > now) throw blockedError(minutesUntil(count.blockedUntil, now));
  const [row] = await ctx.db.select({ passwordHash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, user.id));
  if (row && (await verifyPassword(row.passwordHash, password))) return;

  await recordAttempt(ctx.db, user.email, false, ctx.userAgent, now);
  if (count.blockedUntil && count.blockedUntil > now) throw blockedError(minutesUntil(count.blockedUntil, now));
  const left = LIMITS.loginMaxFailures - count.failedCount;
  throw new AppError(
    "FORBIDDEN",
    { title: privacyMessages.deleteError, description: privacyMessages.wrongCurrentPassword(left) },
    { wrongPassword: true, attemptsLeft: left },
  );
}
