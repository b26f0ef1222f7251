import { schema, type Database } from "@elo/db";
import { eq } from "drizzle-orm";
import { contactInput, privacyMessages } from "@elo/shared";
import { AppError } from "../../trpc/errors";
import { publicProcedure, router } from "../../trpc/init";
import { contactMessageEmail, enqueueTemplate } from "../../mail/templates";

/**
 * The account a contact message is about: the signed-in sender's, or the account of the e-mail a
 * visitor typed (the rule by which deletion and export already find contact messages, decision 060).
 */
async function senderAccount(db: Database, user: { id: string } | null, email: string) {
  if (user) return user.id;
  const [account] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
  return account?.id ?? null;
}

/** The public contact form: stored, then e-mailed to the platform address, in one transaction. */
export const contactRouter = router({
  send: publicProcedure.input(contactInput).mutation(async ({ ctx, input }) => {
    try {
      await ctx.db.transaction(async (tx) => {
        await tx.insert(schema.contactMessages).values({
          subject: input.subject,
          name: input.name,
          email: input.email,
          message: input.message,
          userId: ctx.user?.id ?? null,
          createdAt: ctx.clock.now(),
        });
        await enqueueTemplate({ mailer: ctx.mailer, config: ctx.config }, tx, contactMessageEmail, ctx.config.ADMIN_EMAIL, { userId: null, aboutUserId: await senderAccount(tx, ctx.user, input.email) }, input);
      });
    } catch (error) {
      ctx.logger.error({ err: error }, "contact message not stored");
      throw new AppError("INTERNAL_SERVER_ERROR", { title: privacyMessages.contactErrorTitle, description: privacyMessages.contactErrorDescription });
    }
    return { ok: true as const };
  }),
});
