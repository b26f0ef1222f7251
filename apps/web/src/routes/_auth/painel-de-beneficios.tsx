import { createFileRoute } from "@tanstack/react-router";
import { BenefitsPanelPage } from "../../features/school/BenefitsPanelPage";
import { requireProfile } from "../../lib/guards";

export const Route = createFileRoute("/_auth/painel-de-beneficios")({
  beforeLoad: ({ context }) => requireProfile(context, "institution", "/home"),
  component: BenefitsPanelPage,
});
