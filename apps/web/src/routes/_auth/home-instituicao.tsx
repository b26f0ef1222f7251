import { createFileRoute } from "@tanstack/react-router";
import { SchoolHomePage } from "../../features/school/SchoolHomePage";
import { requireProfile } from "../../lib/guards";

export const Route = createFileRoute("/_auth/home-instituicao")({
  beforeLoad: ({ context }) => requireProfile(context, "institution", "/home"),
  component: SchoolHomePage,
});
