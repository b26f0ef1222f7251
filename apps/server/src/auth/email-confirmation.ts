import { schema, type Database } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { Context } from "../trpc/init";
import { emailConfirmationEmail, enqueueTemplate } from "../mail/templates";
import { queryRows } from "../db/raw";
import { generateSecret, hashSecret } from "./tokens";

const TOKEN_MS = LIMITS.emailConfirmationHours * 60 * 60_000;
const { emailConfirmationTokens: tokens } = schema;

/**
 * Makes a confirmation link for `user` and queues its e-mail, both inside `tx` (the signup's or the
 * resend's transaction): the message exists only if the link does. A benefit chosen on a public page
 * before signing up (issue 26) is given at signup, and a resent link carries the one of the account's
 * latest link.
 */
export async function issueConfirmationLink(ctx: Pick<Context, "clock" | "config" | "mailer">, tx: Database, user: { id: string; email: string; name: string | null }, chosen?: string) {
  const token = generateSecret();
  const now = ctx.clock.now();
  const benefitId = chosen ?? (await latestChosenBenefit(tx, user.id));
  await tx.insert(tokens).values({ id: hashSecret(token), userId: user.id, expiresAt: new Date(now.getTime() + TOKEN_MS), createdAt: now, benefitId: benefitId ?? null });
  const confirmUrl = `${ctx.config.publicOrigin}/confirmar-email?token=${encodeURIComponent(token)}${benefitId ? `&beneficio=${encodeURIComponent(benefitId)}` : ""}`;
  await enqueueTemplate(ctx, tx, emailConfirmationEmail, user.email, { userId: user.id, aboutUserId: null }, { name: user.name, confirmUrl });
}

/** The benefit the account's latest link carries, if any. */
async function latestChosenBenefit(db: Database, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ benefitId: tokens.benefitId }).from(tokens).where(eq(tokens.userId, userId)).orderBy(desc(tokens.createdAt)).limit(1);
  return row?.benefitId ?? undefined;
}

/** The links made for `userId` since `since`, oldest first: what the per-address resend limit counts. */
export async function linksSince(db: Database, userId: string, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ createdAt: tokens.createdAt })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), gt(tokens.createdAt, since)))
    .orderBy(tokens.createdAt);
  return rows.map((r) => r.createdAt);
}

/**
 * Spends a confirmation link and confirms its account in ONE statement: of any number of parallel
 * redemptions exactly one matches the unused, unexpired token. Returns the user id, or null.
 */
export async function spendConfirmationLink(db: Database, token: string, now: Date): Promise<string | null> {
  const at = now.toISOString();
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`
    with spent as (
      update email_confirmation_tokens set used_at = ${at}::timestamptz
      where id = ${hashSecret(token)} and used_at is null and expires_at > ${at}::timestamptz
      returning user_id
    )
    update users u set email_confirmed_at = coalesce(u.email_confirmed_at, ${at}::timestamptz), updated_at = ${at}::timestamptz
    from spent where u.id = spent.user_id
    returning u.id`,
  );
  return row?.id ?? null;
}
