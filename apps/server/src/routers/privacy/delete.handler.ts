import { type Database } from "@elo/db";
import type { DeleteAccountInput } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queueDiscardNotices } from "../../access-log/discard-notices";
import { sessionCookieName } from "../../auth/cookie";
import type { Context } from "../../trpc/init";
import { confirmCurrentPassword } from "./confirm-password";
import { eraseAccountRows } from "./erase-account";
import { listUserFiles, withStoredLeftovers } from "./user-files";

type Ctx = Context & { user: NonNullable<Context["user"]> };

/**
 * Deletes the caller's account (LGPD Art. 18, VI) in one transaction, once the current password
 * is confirmed: the user row (its profile, enrollments, consents, roles, sessions, tokens, claims,
 * memberships and outbox e-mails go with it by cascade; vouchers and created schools keep no link),
 * the contact messages and login history of its e-mail, and a deletion record with the date, the
 * reason and the hash of the id (eraseAccountRows). Stored files are removed after the commit. The school records themselves stay.
 */
export async function deleteUserData({ ctx, input }: { ctx: Ctx; input: DeleteAccountInput }) {
  await confirmCurrentPassword(ctx, ctx.user, input.password);
  const userId = ctx.user.id;
  const files = await listUserFiles(ctx.db, userId);

  await ctx.db.transaction(async (tx) => {
    // The schools that opened any of the parent's proofs are asked to discard copies (issue 27):
    // queued with the deletion, keyed to each staff member, so it commits with its notices or not at all.
    await queueDiscardNotices(ctx, tx as unknown as Database, userId, sql`true`);
    await eraseAccountRows(tx, userId, ctx.clock.now());
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
