import { accessMessages } from "@elo/shared";
import { createFileRoute } from "@tanstack/react-router";
import { AdminParentsPage } from "../../features/admin/AdminParentsPage";
import { requireAdmin } from "../../lib/guards";

/** Outside the _admin layout: the spec sends non-admins to /dashboard with its own message here. */
export const Route = createFileRoute("/_auth/admin-pais")({
  beforeLoad: async ({ context }) => ({ me: await requireAdmin(context, "/dashboard", accessMessages.adminOnly) }),
  component: AdminParentsPage,
});
