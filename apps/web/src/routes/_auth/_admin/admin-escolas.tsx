import { createFileRoute } from "@tanstack/react-router";
import { AdminSchoolsPage } from "../../../features/admin/AdminSchoolsPage";

export const Route = createFileRoute("/_auth/_admin/admin-escolas")({
  component: AdminSchoolsPage,
});
