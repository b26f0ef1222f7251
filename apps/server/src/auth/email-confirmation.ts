import { schema, type Database } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Context } from "../trpc/init";
import { emailConfirmationEmail, enqueueTemplate } from "../mail/templates";
import { queryRows } from "../db/raw";
import { generateSecret, hashSecret } from "./tokens";

const TOKEN_MS = LIMITS.emailConfirmationHours * 60 * 60_000;
const { emailConfirmationTokens: tokens } = schema;

/**
 * Makes a confirmation link for `user` and queues its e-mail, both inside `tx` (the signup's or the
 * resend's transaction): the message exists only if the link does.
 */
export async function issueConfirmationLink(ctx: Pick<Context, "clock" | "config" | "mailer">, tx: Database, user: { id: string; email: string; name: string | null }, benefitId?: string) {
  const token = generateSecret();
  const now = ctx.clock.now();
  await tx.insert(tokens).values({ id: hashSecret(token), userId: user.id, expiresAt: new Date(now.getTime() + TOKEN_MS), createdAt: now });
  // A benefit chosen on a public page before signing up survives the link (issue 26).
  const confirmUrl = `${ctx.config.publicOrigin}/confirmar-email?token=${encodeURIComponent(token)}${benefitId ? `&beneficio=${encodeURIComponent(benefitId)}` : ""}`;
  await enqueueTemplate(ctx, tx, emailConfirmationEmail, user.email, { userId: user.id, aboutUserId: null }, { name: user.name, confirmUrl });
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
