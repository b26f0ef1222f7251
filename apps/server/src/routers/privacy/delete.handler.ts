import { schema, type Database } from "@elo/db";
import { privacyMessages, type DeleteAccountInput } from "@elo/shared";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { queueDiscardNotices } from "../../access-log/discard-notices";
import { sessionCookieName } from "../../auth/cookie";
import { passwordResetEmail, voucherEmail } from "../../mail/templates";
import type { Context } from "../../trpc/init";
import { confirmCurrentPassword } from "./confirm-password";
import { listUserFiles, withStoredLeftovers } from "./user-files";

type Ctx = Context & { user: NonNullable<Context["user"]> };

/** E-mails addressed to a person; the other kinds go to ADMIN_EMAIL. */
const RECIPIENT_KINDS = [passwordResetEmail.kind, voucherEmail.kind];

/**
 * Deletes the caller's account (LGPD Art. 18, VI) in one transaction, once the current password
 * is confirmed: the user row (its profile, enrollments, consents, roles, sessions, tokens, claims,
 * memberships and outbox e-mails go with it by cascade; vouchers and created schools keep no link),
 * the contact messages and login history of its e-mail, and a deletion record with only the date
 * and the reason. Stored files are removed after the commit. The school records themselves stay.
 */
export async function deleteUserData({ ctx, input }: { ctx: Ctx; input: DeleteAccountInput }) {
  await confirmCurrentPassword(ctx, ctx.user, input.password);
  const userId = ctx.user.id;
  const files = await listUserFiles(ctx.db, userId);

  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, userId)).for("update");
    if (!row) return;
    const email = row.email.toLowerCase();
    const { emailOutbox: outbox } = schema;

    // Contact messages: the user's own, and any sent with the same e-mail while logged out.
    await tx.delete(schema.contactMessages).where(or(eq(schema.contactMessages.userId, userId), eq(sql`lower(${schema.contactMessages.email})`, email)));
    // E-mails to the user and those about the user, by key (decision 102); the foreign keys cascade
    // too. Rows queued before those keys existed are the user's when addressed to them.
    await tx
      .delete(outbox)
      .where(or(eq(outbox.userId, userId), eq(outbox.aboutUserId, userId), and(isNull(outbox.userId), inArray(outbox.kind, RECIPIENT_KINDS), eq(sql`lower(${outbox.to})`, email))));
    // The schools that opened any of the parent's proofs are asked to discard copies (issue 27):
    // queued here, keyed to each staff member, so the deletion commits with its notices or not at all.
    await queueDiscardNotices(ctx, tx as unknown as Database, userId, sql`true`);
    await tx.delete(schema.loginAttempts).where(eq(schema.loginAttempts.email, email));
    await tx.delete(schema.loginThrottles).where(eq(schema.loginThrottles.email, email));
    await tx.delete(schema.users).where(eq(schema.users.id, userId));
    await tx.insert(schema.deletionRecords).values({ deletedAt: ctx.clock.now(), reason: privacyMessages.deletionReason });
  });

  const stored = await withStoredLeftovers(ctx.storage, userId, files).catch((error) => {
    ctx.logger.warn({ err: error }, "could not list a deleted user's stored files");
    return files;
  });
  for (const f of stored) {
    try {
      await ctx.storage.remove(f.bucket, f.key);
    } catch (error) {
      ctx.logger.warn({ err: error, bucket: f.bucket }, "could not remove a deleted user's file");
    }
  }
  ctx.cookies.clear(sessionCookieName(ctx.config));
  return { ok: true as const };
}
