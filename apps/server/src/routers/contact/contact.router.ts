import { schema } from "@elo/db";
import { contactInput, privacyMessages } from "@elo/shared";
import { AppError } from "../../trpc/errors";
import { publicProcedure, router } from "../../trpc/init";
import { contactMessageEmail, enqueueTemplate } from "../../mail/templates";

/** The public contact form: stored, then e-mailed to the platform address. */
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
        await enqueueTemplate({ mailer: ctx.mailer, config: ctx.config }, tx, contactMessageEmail, ctx.config.ADMIN_EMAIL, input);
      });
    } catch (error) {
      ctx.logger.error({ err: error }, "contact message not stored");
      throw new AppError("INTERNAL_SERVER_ERROR", { title: privacyMessages.contactErrorTitle, description: privacyMessages.contactErrorDescription });
    }
    return { ok: true as const };
  }),
});
