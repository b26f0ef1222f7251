import { PLAN_TYPES, schoolMessages, type PlanType } from "@elo/shared";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { PlanConfirmationPage } from "../features/school/PlanConfirmationPage";
import { loadMe } from "../lib/guards";
import { notifyError } from "../lib/notify";

const isPlan = (v: unknown): v is PlanType => typeof v === "string" && (PLAN_TYPES as readonly string[]).includes(v);

/** Outside the _auth layout so that a visitor gets the plan page's own message before /login. */
export const Route = createFileRoute("/confirmacao-plano")({
  // Unknown keys of the raw search survive validation, so an invalid plan is overwritten explicitly.
  validateSearch: (search: Record<string, unknown>): { plan?: PlanType } => ({ plan: isPlan(search.plan) ? search.plan : undefined }),
  beforeLoad: async ({ context, search }) => {
    const me = await loadMe(context);
    if (!me) {
      notifyError(schoolMessages.loginToChoosePlan);
      throw redirect({ to: "/login", replace: true });
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
