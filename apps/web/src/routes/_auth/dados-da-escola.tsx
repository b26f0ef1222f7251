import { createFileRoute } from "@tanstack/react-router";
import { SchoolDataPage } from "../../features/school/SchoolDataPage";
import { requireProfile } from "../../lib/guards";

export const Route = createFileRoute("/_auth/dados-da-escola")({
  beforeLoad: ({ context }) => requireProfile(context, "institution", "/"),
  component: SchoolDataPage,
});
