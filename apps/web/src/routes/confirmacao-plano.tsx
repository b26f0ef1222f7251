import { planChoiceMessages, type PlanType } from "@elo/shared";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { PlanConfirmationPage } from "../features/school/PlanConfirmationPage";
import { loadMe } from "../lib/guards";
import { notifyError } from "../lib/notify";
import { isPlan, planSearch } from "../lib/plan-choice";

/** Outside the _auth layout so that a visitor gets the plan page's own message before /login. */
export const Route = createFileRoute("/confirmacao-plano")({
  // Unknown keys of the raw search survive validation, so an invalid plan is overwritten explicitly.
  validateSearch: (search: Record<string, unknown>): { plan?: PlanType } => ({ plan: isPlan(search.plan) ? search.plan : undefined }),
  beforeLoad: async ({ context, search }) => {
    const me = await loadMe(context);
    if (!me) {
      notifyError(planChoiceMessages.loginToChoosePlan);
      // The plan travels on, so signing in (or up, from the login page's link) comes back here.
      throw redirect({ to: "/login", search: planSearch(search), replace: true });
    }
    if (me.isAdmin || me.profileType !== "institution") throw redirect({ to: "/home", replace: true });
    if (!isPlan(search.plan)) throw redirect({ to: "/plano", replace: true });
    return { plan: search.plan };
  },
  component: function PlanConfirmationRoute() {
    const { plan } = Route.useRouteContext();
    return <PlanConfirmationPage plan={plan} />;
  },
});
