import { createFileRoute } from "@tanstack/react-router";
import { AdminOperationsPage } from "../../../features/operations/AdminOperationsPage";

export const Route = createFileRoute("/_auth/_admin/admin-operacao")({
  component: AdminOperationsPage,
});
