import { schema, type Database } from "@elo/db";
import { emailConfirmationMessages as m } from "@elo/shared";
import { eq } from "drizzle-orm";
import { issueConfirmationLink, linksSince, spendConfirmationLink } from "../../auth/email-confirmation";
import { RATE_LIMITS } from "../../http/rate-limit";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import { notifyProfileChanged } from "../profile/events";

type Ctx = Context & { user: NonNullable<Context["user"]> };

/** Per address, the same numbers as the per-IP limit of password recovery (RATE_LIMITS.recovery). */
const PER_ADDRESS = { max: RATE_LIMITS.recovery.max, windowMs: RATE_LIMITS.recovery.timeWindow };

/** /confirmar-email: spends the link (once, even under a burst) and confirms the address. */
export async function confirmEmailHandler({ ctx, input }: { ctx: Context; input: { token: string } }) {
  const userId = await spendConfirmationLink(ctx.db, input.token, ctx.clock.now());
  if (!userId) throw new AppError("BAD_REQUEST", { title: m.invalidLinkTitle, description: m.invalidLinkDescription }, { invalidLink: true });
  // Open tabs of the account drop the banner at once.
  await notifyProfileChanged(ctx.db, userId);
  // Whether the link was the signed-in viewer's own: its page may then show the address confirmed at once.
  return { ok: true as const, viewerConfirmed: ctx.user?.id === userId };
}

/**
 * 'Reenviar e-mail': a new link, unless the address is confirmed already or has had its quota of
 * links in the window. The account row is locked while counting, so parallel resends cannot pass
 * the quota together; the per-IP limit is the 'recovery' group of RATE_LIMITS.
 */
export async function resendConfirmationHandler({ ctx }: { ctx: Ctx }) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [user] = await tx
      .select({ id: schema.users.id, email: schema.users.email, confirmedAt: schema.users.emailConfirmedAt, name: schema.profiles.fullName })
      .from(schema.users)
      .leftJoin(schema.profiles, eq(schema.profiles.userId, schema.users.id))
      .where(eq(schema.users.id, ctx.user.id))
      .for("update", { of: schema.users });
    if (!user || user.confirmedAt) return { sent: false as const, alreadyConfirmed: true as const };
    const recent = await linksSince(tx, user.id, new Date(now.getTime() - PER_ADDRESS.windowMs));
    if (recent.length >= PER_ADDRESS.max) {
      const freesAt = recent[recent.length - PER_ADDRESS.max]!.getTime() + PER_ADDRESS.windowMs;
      const minutes = Math.max(1, Math.ceil((freesAt - now.getTime()) / 60_000));
      throw new AppError("TOO_MANY_REQUESTS", { title: m.tooManyTitle, description: m.tooManyDescription(minutes) }, { minutes });
    }
    await issueConfirmationLink(ctx, tx, user);
    return { sent: true as const, alreadyConfirmed: false as const };
  });
}
