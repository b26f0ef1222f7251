import { createFileRoute } from "@tanstack/react-router";
import { HomePage } from "../../features/marketplace/HomePage";

/** /home: the parent's marketplace (spec 1 §2 "Parent home"). */
export const Route = createFileRoute("/_auth/home")({
  // 'Quero este desconto' on a public page (issue 26) brings the parent here with the benefit chosen.
  validateSearch: (search: Record<string, unknown>): { beneficio?: string } => (typeof search.beneficio === "string" && /^[0-9a-f-]{36}$/i.test(search.beneficio) ? { beneficio: search.beneficio } : {}),
  component: HomePage,
});
