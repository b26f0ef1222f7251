import { createFileRoute, Outlet } from "@tanstack/react-router";
import { requireAdmin } from "../../lib/guards";

/** Admin-only pages. */
export const Route = createFileRoute("/_auth/_admin")({
  beforeLoad: async ({ context }) => ({ me: await requireAdmin(context) }),
  component: Outlet,
});
