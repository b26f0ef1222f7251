import { schema } from "@elo/db";
import { privacyMessages } from "@elo/shared";
import { eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { sessionCookieName } from "../../auth/cookie";
import type { Context } from "../../trpc/init";
import { listUserFiles, withStoredLeftovers } from "./user-files";

type Ctx = Context & { user: NonNullable<Context["user"]> };

/** Shorter strings could match other people's messages; they are not used to find rows. */
const MIN_MATCH_LENGTH = 5;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Deletes the caller's account (LGPD Art. 18, VI) in one transaction: the user row (its profile,
 * enrollments, consents, roles, sessions, tokens, claims and memberships go with it by cascade;
 * vouchers and created schools keep no link), the contact messages, login history and e-mails that
 * carry the user's e-mail, name or CPF, and a deletion record with only the date and the reason.
 * Stored files are removed after the commit. The school records themselves stay.
 */
export async function deleteUserData({ ctx }: { ctx: Ctx }) {
  const userId = ctx.user.id;
  const files = await listUserFiles(ctx.db, userId);

  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ email: schema.users.email, fullName: schema.profiles.fullName, studentName: schema.profiles.studentName, cpf: schema.profiles.studentCpf })
      .from(schema.users)
      .leftJoin(schema.profiles, eq(schema.profiles.userId, schema.users.id))
      .where(eq(schema.users.id, userId))
      .for("update", { of: schema.users });
    if (!row) return;
    const email = row.email.toLowerCase();
    const identifiers = [email, row.fullName, row.studentName, row.cpf].filter((v): v is string => !!v && v.trim().length >= MIN_MATCH_LENGTH).map((v) => v.trim());

    // Contact messages: the user's own, and any sent with the same e-mail while logged out.
    await tx.delete(schema.contactMessages).where(or(eq(schema.contactMessages.userId, userId), eq(sql`lower(${schema.contactMessages.email})`, email)));
    // E-mails to the user, and those about the user (proof, school request, contact) that name them.
    const mentions: SQL[] = identifiers.flatMap((v) => [ilike(schema.emailOutbox.text, `%${escapeLike(v)}%`), ilike(schema.emailOutbox.html, `%${escapeLike(v)}%`)]);
    await tx.delete(schema.emailOutbox).where(or(eq(sql`lower(${schema.emailOutbox.to})`, email), ...mentions));
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
