import { createFileRoute } from "@tanstack/react-router";
import { HomePage } from "../../features/marketplace/HomePage";

/** /home: the parent's marketplace (spec 1 §2 "Parent home"). */
export const Route = createFileRoute("/_auth/home")({
  component: HomePage,
});
