import { schema } from "@elo/db";
import { desc, eq } from "drizzle-orm";
import { deleteAccountInput } from "@elo/shared";
import { parentProcedure, protectedProcedure, router, sessionOnlyProcedure } from "../../trpc/init";
import { sharedWith, whoSaw } from "../../access-log/parent-view";
import { deleteUserData } from "./delete.handler";
import { exportUserData } from "./export.handler";

/** The caller's own data rights: latest consent, export and account deletion. */
export const privacyRouter = router({
  latestConsent: protectedProcedure.query(async ({ ctx }) => {
    const [row] = await ctx.db
      .select({
        termsAccepted: schema.userConsents.termsAccepted,
        privacyAccepted: schema.userConsents.privacyAccepted,
        dataProcessingConsent: schema.userConsents.dataProcessingConsent,
        marketingConsent: schema.userConsents.marketingConsent,
        consentVersion: schema.userConsents.consentVersion,
        acceptedAt: schema.userConsents.acceptedAt,
      })
      .from(schema.userConsents)
      .where(eq(schema.userConsents.userId, ctx.user.id))
      .orderBy(desc(schema.userConsents.acceptedAt))
      .limit(1);
    return row ?? null;
  }),
  export: protectedProcedure.mutation(exportUserData),
  /** 'Quem viu os dados do meu filho': openings, decisions and desk lookups by others (issue 27). */
  accessLog: parentProcedure.query(({ ctx }) => whoSaw(ctx.db, ctx.user.id)),
  /** 'Com quem seus dados foram compartilhados': schools, institutions and operators, made from the data. */
  sharedWith: parentProcedure.query(({ ctx }) => sharedWith(ctx.db, ctx.config, ctx.user.id)),
  /** Needs the browser session and the current password (decision 104). */
  deleteAccount: sessionOnlyProcedure.input(deleteAccountInput).mutation(deleteUserData),
});
