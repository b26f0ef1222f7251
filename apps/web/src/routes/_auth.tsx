import { createFileRoute, Outlet } from "@tanstack/react-router";
import { requireUser } from "../lib/guards";

/** Pages behind login. */
export const Route = createFileRoute("/_auth")({
  beforeLoad: async ({ context }) => ({ me: await requireUser(context) }),
  component: Outlet,
});
