import { accessMessages } from "@elo/shared";
import type { QueryClient } from "@tanstack/react-query";
import { redirect } from "@tanstack/react-router";
import { notifyError } from "./notify";
import type { Trpc } from "./trpc";

export interface RouterContext {
  queryClient: QueryClient;
  trpc: Trpc;
}

export type Me = NonNullable<Awaited<ReturnType<typeof loadMe>>>;

/** The signed-in user (cached), or null. */
export const loadMe = (context: RouterContext) => context.queryClient.ensureQueryData(context.trpc.auth.me.queryOptions());

/** Where each kind of user lands. */
export function homePathFor(me: { isAdmin: boolean; profileType: string | null } | null): "/admin-escolas" | "/home-instituicao" | "/home" | "/" {
  if (!me) return "/";
  if (me.isAdmin) return "/admin-escolas";
  return me.profileType === "institution" ? "/home-instituicao" : "/home";
}

/** Guard for pages behind login: redirects to /login with the spec's toast. */
export async function requireUser(context: RouterContext): Promise<Me> {
  const me = await loadMe(context);
  if (!me) {
    notifyError(accessMessages.unauthenticated);
    throw redirect({ to: "/login", replace: true });
  }
  return me;
}

/** Admin-only pages: others go to `fallback` with a toast. */
export async function requireAdmin(context: RouterContext, fallback: "/home" | "/dashboard" = "/home", message: string = accessMessages.forbidden) {
  const me = await requireUser(context);
  if (!me.isAdmin) {
    notifyError(message);
    throw redirect({ to: fallback, replace: true });
  }
  return me;
}

/** Pages for one profile type; others are sent to `otherwise` (spec 2 §2 per-page redirects). */
export async function requireProfile(context: RouterContext, type: "parent" | "institution", otherwise: string) {
  const me = await requireUser(context);
  if (me.profileType !== type || me.isAdmin) throw redirect({ to: otherwise, replace: true });
  return me;
}
