import { schema } from "@elo/db";
import { LIMITS, privacyMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { minutesUntil, reservePasswordCheck } from "../../auth/lockout";
import { recordFailedLogin } from "../../auth/login-store";
import { verifyPassword } from "../../auth/password";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import { blockedError } from "../auth/login.handler";

/**
 * Checks the signed-in user's current password before an irreversible action, under the login
 * lockout of the e-mail. The attempt is reserved *before* the password is checked (decision 105):
 * parallel guesses each take their own place in the count, so once the e-mail is blocked none is
 * checked at all, however many arrive together (a stolen session cannot guess the password here
 * instead of on /login). The deletion that follows a right password removes the count with the
 * account.
 */
export async function confirmCurrentPassword(ctx: Pick<Context, "db" | "clock" | "userAgent">, user: { id: string; email: string }, password: string) {
  const now = ctx.clock.now();
  const { granted, attempt, blockedUntil } = await reservePasswordCheck(ctx.db, user.email, now);
  if (!granted) throw blockedError(minutesUntil(blockedUntil ?? now, now));
  const [row] = await ctx.db.select({ passwordHash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, user.id));
  if (row && (await verifyPassword(row.passwordHash, password))) return;

  await recordFailedLogin(ctx.db, user.email, ctx.userAgent, now);
  if (blockedUntil && blockedUntil > now) throw blockedError(minutesUntil(blockedUntil, now));
  const left = LIMITS.loginMaxFailures - attempt;
  throw new AppError(
    "FORBIDDEN",
    { title: privacyMessages.deleteError, description: privacyMessages.wrongCurrentPassword(left) },
    { wrongPassword: true, attemptsLeft: left },
  );
}
