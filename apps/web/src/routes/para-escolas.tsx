import { createFileRoute } from "@tanstack/react-router";
import { SchoolsLanding } from "../features/landing/SchoolsLanding";

export const Route = createFileRoute("/para-escolas")({
  component: SchoolsLanding,
});
