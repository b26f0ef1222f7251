import { checkResetTokenInput, confirmEmailInput, forgotPasswordInput, loginInput, resetPasswordInput, signupInput } from "@elo/shared";
import { sessionCookieName } from "../../auth/cookie";
import { invalidateSession } from "../../auth/session";
import { renderEmailPreviews } from "../../mail/templates";
import { adminProcedure, protectedProcedure, publicProcedure, router } from "../../trpc/init";
import { loginHandler } from "./login.handler";
import { meHandler } from "./me.handler";
import { confirmEmailHandler, resendConfirmationHandler } from "./email-confirmation.handler";
import { checkResetTokenHandler, requestPasswordResetHandler, resetPasswordHandler } from "./password-reset.handler";
import { signupHandler } from "./signup.handler";

export const authRouter = router({
  me: publicProcedure.query(meHandler),
  login: publicProcedure.input(loginInput).mutation(loginHandler),
  signup: publicProcedure.input(signupInput).mutation(signupHandler),
  requestPasswordReset: publicProcedure.input(forgotPasswordInput).mutation(requestPasswordResetHandler),
  checkResetToken: publicProcedure.input(checkResetTokenInput).query(checkResetTokenHandler),
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(resetPasswordHandler),
  /** Spends an e-mail confirmation link (public: the link may be opened in another browser). */
  confirmEmail: publicProcedure.input(confirmEmailInput).mutation(confirmEmailHandler),
  /** 'Reenviar e-mail' of the banner: a new confirmation link (limited per address and per IP). */
  resendConfirmation: protectedProcedure.mutation(resendConfirmationHandler),
  logout: protectedProcedure.mutation(async ({ ctx }) => {
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
    ctx.cookies.clear(sessionCookieName(ctx.config));
    return { ok: true as const };
  }),
  /** Every e-mail template rendered with sample data, for /email-preview (admin only). */
  emailPreviews: adminProcedure.query(({ ctx }) => renderEmailPreviews(ctx.config)),
});
