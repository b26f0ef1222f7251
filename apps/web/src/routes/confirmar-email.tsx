import { createFileRoute } from "@tanstack/react-router";
import { ConfirmEmailPage } from "../features/auth/ConfirmEmailPage";

export const Route = createFileRoute("/confirmar-email")({
  validateSearch: (search: Record<string, unknown>): { token?: string; beneficio?: string } => ({
    ...(typeof search.token === "string" ? { token: search.token } : {}),
    // The benefit chosen on a public page before signing up (issue 26).
    ...(typeof search.beneficio === "string" && /^[0-9a-f-]{36}$/i.test(search.beneficio) ? { beneficio: search.beneficio } : {}),
  }),
  component: ConfirmEmailRoute,
});

function ConfirmEmailRoute() {
  const { token, beneficio } = Route.useSearch();
  return <ConfirmEmailPage token={token} benefitId={beneficio} />;
}
