import { createFileRoute, redirect } from "@tanstack/react-router";
import { ConfirmationPage } from "../../features/marketplace/ConfirmationPage";

/** /confirmacao-desconto?transaction=id; without the parameter, back to /home. */
export const Route = createFileRoute("/_auth/confirmacao-desconto")({
  validateSearch: (search: Record<string, unknown>): { transaction?: string } => ({
    transaction: typeof search.transaction === "string" && search.transaction.trim() !== "" ? search.transaction : undefined,
  }),
  beforeLoad: ({ search }) => {
    if (!search.transaction) throw redirect({ to: "/home", replace: true });
  },
  component: Confirmation,
});

function Confirmation() {
  const { transaction } = Route.useSearch();
  return <ConfirmationPage key={transaction} transactionId={transaction ?? ""} />;
}
