import { createFileRoute, redirect } from "@tanstack/react-router";
import { homePathFor } from "../../lib/guards";

/** /dashboard sends each kind of user to their own home. */
export const Route = createFileRoute("/_auth/dashboard")({
  beforeLoad: ({ context }) => {
    throw redirect({ to: homePathFor(context.me), replace: true });
  },
});
