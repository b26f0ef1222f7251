import type { PlanType } from "@elo/shared";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { SignupPage } from "../features/auth/SignupPage";
import { homePathFor, loadMe } from "../lib/guards";
import { planSearch } from "../lib/plan-choice";

export const Route = createFileRoute("/signup")({
  validateSearch: (search: Record<string, unknown>): { profile?: string; plan?: PlanType } => ({
    ...(typeof search.profile === "string" ? { profile: search.profile } : {}),
    ...planSearch(search),
  }),
  beforeLoad: async ({ context }) => {
    const me = await loadMe(context);
    if (me) throw redirect({ to: homePathFor(me), replace: true });
  },
  component: SignupRoute,
});

function SignupRoute() {
  const { profile, plan } = Route.useSearch();
  return <SignupPage initialProfile={profile === "institution" || profile === "school" ? "institution" : "parent"} plan={plan} />;
}
