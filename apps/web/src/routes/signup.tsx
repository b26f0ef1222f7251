import type { PlanType } from "@elo/shared";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { SignupPage } from "../features/auth/SignupPage";
import { homePathFor, loadMe } from "../lib/guards";
import { planSearch } from "../lib/plan-choice";

export const Route = createFileRoute("/signup")({
  validateSearch: (search: Record<string, unknown>): { profile?: string; plan?: PlanType; beneficio?: string } => ({
    ...(typeof search.profile === "string" ? { profile: search.profile } : {}),
    ...planSearch(search),
    // 'Quero este desconto' on a public page (issue 26): carried through signup and the confirmation e-mail.
    ...(typeof search.beneficio === "string" && /^[0-9a-f-]{36}$/i.test(search.beneficio) ? { beneficio: search.beneficio } : {}),
  }),
  beforeLoad: async ({ context, search }) => {
    const me = await loadMe(context);
    if (me && search.beneficio && me.profileType === "parent") throw redirect({ to: "/home", search: { beneficio: search.beneficio }, replace: true });
    if (me) throw redirect({ to: homePathFor(me), replace: true });
  },
  component: SignupRoute,
});

function SignupRoute() {
  const { profile, plan, beneficio } = Route.useSearch();
  return <SignupPage initialProfile={profile === "institution" || profile === "school" ? "institution" : "parent"} plan={plan} benefitId={beneficio} />;
}
