import { router } from "../trpc/init";
import { adminRouter } from "./admin/admin.router";
import { apiTokensRouter } from "./apiTokens/apiTokens.router";
import { authRouter } from "./auth/auth.router";
import { planRouter } from "./plan/plan.router";
import { claimRouter } from "./claim/claim.router";
import { marketplaceRouter } from "./marketplace/marketplace.router";
import { profileRouter } from "./profile/profile.router";
import { contactRouter } from "./contact/contact.router";
import { landingRouter } from "./landing/landing.router";
import { privacyRouter } from "./privacy/privacy.router";
import { referenceRouter } from "./reference/reference.router";
import { schoolRouter } from "./school/school.router";
import { schoolsRouter } from "./schools/schools.router";
import { waitlistRouter } from "./waitlist/waitlist.router";

/** Every domain router, merged. */
export const appRouter = router({
  admin: adminRouter,
  auth: authRouter,
  apiTokens: apiTokensRouter,
  reference: referenceRouter,
  school: schoolRouter,
  plan: planRouter,
  marketplace: marketplaceRouter,
  claim: claimRouter,
  waitlist: waitlistRouter,
  profile: profileRouter,
  schools: schoolsRouter,
  privacy: privacyRouter,
  contact: contactRouter,
  landing: landingRouter,
});

export type AppRouter = typeof appRouter;
