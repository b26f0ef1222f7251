import { createFileRoute } from "@tanstack/react-router";
import { ParentPanelPage } from "../../features/marketplace/ParentPanelPage";
import { requireProfile } from "../../lib/guards";

/** /painel-pais: parents only (institution users go to /home-instituicao). */
export const Route = createFileRoute("/_auth/painel-pais")({
  beforeLoad: ({ context }) => requireProfile(context, "parent", "/home-instituicao"),
  component: ParentPanelPage,
});
