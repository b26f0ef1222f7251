import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type RouterHistory } from "@tanstack/react-router";
import { PageLoader } from "./features/layout/PageLoader";
import { NotFound } from "./features/layout/NotFound";
import { DefaultRouteError } from "./features/layout/RouteError";
import { trpc } from "./lib/trpc";
import { routeTree } from "./routeTree.gen";

/** The app's router: the browser's (router.tsx) and the build's for the landing pages (prerender/) are alike, so hydration matches. */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context: { queryClient, trpc },
    ...(history ? { history } : {}),
    defaultPreload: "intent",
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultPendingComponent: PageLoader,
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: DefaultRouteError,
  });
}
