import { createFileRoute, redirect } from "@tanstack/react-router";
import { LoginPage } from "../features/auth/LoginPage";
import { homePathFor, loadMe } from "../lib/guards";
import { planSearch } from "../lib/plan-choice";

export const Route = createFileRoute("/login")({
  validateSearch: planSearch,
  beforeLoad: async ({ context }) => {
    const me = await loadMe(context);
    if (me) throw redirect({ to: homePathFor(me), replace: true });
  },
  component: function LoginRoute() {
    const { plan } = Route.useSearch();
    return <LoginPage plan={plan} />;
  },
});
