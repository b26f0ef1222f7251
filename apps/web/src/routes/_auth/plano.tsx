import { createFileRoute } from "@tanstack/react-router";
import { PlansPage } from "../../features/school/PlansPage";
import { requireProfile } from "../../lib/guards";

export const Route = createFileRoute("/_auth/plano")({
  beforeLoad: ({ context }) => requireProfile(context, "institution", "/home"),
  component: PlansPage,
});
