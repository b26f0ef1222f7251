import { createFileRoute } from "@tanstack/react-router";
import { VoucherDeskPage } from "../../features/school/VoucherDeskPage";
import { requireProfile } from "../../lib/guards";

export const Route = createFileRoute("/_auth/painel-escola")({
  beforeLoad: ({ context }) => requireProfile(context, "institution", "/home"),
  component: VoucherDeskPage,
});
