import { createFileRoute } from "@tanstack/react-router";
import { ConfirmEnrollmentsPage } from "../../features/verification/ConfirmEnrollmentsPage";
import { requireProfile } from "../../lib/guards";

export const Route = createFileRoute("/_auth/confirmar-matriculas")({
  beforeLoad: ({ context }) => requireProfile(context, "institution", "/home"),
  component: ConfirmEnrollmentsPage,
});
