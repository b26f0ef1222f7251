import { createFileRoute } from "@tanstack/react-router";
import { ParentsLanding } from "../features/landing/ParentsLanding";

export const Route = createFileRoute("/")({
  component: ParentsLanding,
});
