import { createHash } from "node:crypto";
import { schema, type Database } from "@elo/db";
import { privacyMessages } from "@elo/shared";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { keepErasedAccessLog } from "../../access-log/erasure";
import { passwordResetEmail, voucherEmail } from "../../mail/templates";

/** E-mails addressed to a person; the other kinds go to ADMIN_EMAIL. */
const RECIPIENT_KINDS = [passwordResetEmail.kind, voucherEmail.kind];

/** The deletion ledger's key for an account: SHA-256 of its id, hex (decision 182). */
export const accountHash = (userId: string) => createHash("sha256").update(userId.toLowerCase()).digest("hex");

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Erases an account's rows inside `tx` (privacy.deleteAccount, and a restore replaying the deletion
 * ledger): the user row (profile, enrollments, consents, roles, sessions, tokens, claims,
 * memberships and outbox e-mails go with it by cascade; vouchers and created schools keep no link),
 * the contact messages and login history of its e-mail, and a deletion record with the date, the
 * reason and the hash of the id. The access log's operations are kept anonymised under that hash
 * (decision 194). False when there was no such account. Files are the caller's.
 */
export async function eraseAccountRows(tx: Tx, userId: string, deletedAt: Date): Promise<boolean> {
  const [row] = await tx.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, userId)).for("update");
  if (!row) return false;
  const email = row.email.toLowerCase();
  const { emailOutbox: outbox } = schema;

  // Contact messages: the user's own, and any sent with the same e-mail while logged out.
  await tx.delete(schema.contactMessages).where(or(eq(schema.contactMessages.userId, userId), eq(sql`lower(${schema.contactMessages.email})`, email)));
  // E-mails to the user and those about the user, by key (decision 102); the foreign keys cascade
  // too. Rows queued before those keys existed are the user's when addressed to them.
  await tx
    .delete(outbox)
    .where(or(eq(outbox.userId, userId), eq(outbox.aboutUserId, userId), and(isNull(outbox.userId), inArray(outbox.kind, RECIPIENT_KINDS), eq(sql`lower(${outbox.to})`, email))));
  await tx.delete(schema.loginAttempts).where(eq(schema.loginAttempts.email, email));
  await tx.delete(schema.loginThrottles).where(eq(schema.loginThrottles.email, email));
  // What others did with the account's data stays, anonymised, for the controller's record (decision 194).
  await keepErasedAccessLog(tx, userId, accountHash(userId), deletedAt);
  await tx.delete(schema.users).where(eq(schema.users.id, userId));
  await tx
    .insert(schema.deletionRecords)
    .values({ deletedAt, reason: privacyMessages.deletionReason, accountHash: accountHash(userId) })
    .onConflictDoNothing();
  return true;
}
