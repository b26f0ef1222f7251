import { createFileRoute } from "@tanstack/react-router";
import { AddSchoolPage } from "../../features/profile/AddSchoolPage";
import { requireProfile } from "../../lib/guards";

/** /add-escola: parents only; an institution user is sent to /home-instituicao. */
export const Route = createFileRoute("/_auth/add-escola")({
  beforeLoad: ({ context }) => requireProfile(context, "parent", "/home-instituicao"),
  component: AddSchoolPage,
});
