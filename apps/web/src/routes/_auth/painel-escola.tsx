import { createFileRoute } from "@tanstack/react-router";
import { VoucherDeskPage } from "../../features/school/VoucherDeskPage";
import { requireProfile } from "../../lib/guards";

/**
 * /painel-escola, or /painel-escola?voucher=NNNN-LLLL: the desk with that code already looked up
 * (the address a voucher's QR code will carry). Only approved staff of the voucher's school see
 * anything about it: the lookup is theirs alone, on the server.
 */
export const Route = createFileRoute("/_auth/painel-escola")({
  validateSearch: (search: Record<string, unknown>): { voucher?: string } => ({
    voucher: typeof search.voucher === "string" && /^\d{4}-?[A-Za-z]{4}$/.test(search.voucher.trim()) ? search.voucher.trim().toUpperCase() : undefined,
  }),
  beforeLoad: ({ context }) => requireProfile(context, "institution", "/home"),
  component: Desk,
});

function Desk() {
  const { voucher } = Route.useSearch();
  return <VoucherDeskPage initialCode={voucher} />;
}
