import { createFileRoute, redirect } from "@tanstack/react-router";
import { LoginPage } from "../features/auth/LoginPage";
import { homePathFor, loadMe } from "../lib/guards";

export const Route = createFileRoute("/login")({
  beforeLoad: async ({ context }) => {
    const me = await loadMe(context);
    if (me) throw redirect({ to: homePathFor(me), replace: true });
  },
  component: LoginPage,
});
