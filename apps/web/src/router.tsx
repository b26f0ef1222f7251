import { createRouter } from "@tanstack/react-router";
import { PageLoader } from "./features/layout/PageLoader";
import { NotFound } from "./features/layout/NotFound";
import { DefaultRouteError } from "./features/layout/RouteError";
import { queryClient, setSessionLostHandler, trpc } from "./lib/trpc";
import { routeTree } from "./routeTree.gen";

export const router = createRouter({
  routeTree,
  context: { queryClient, trpc },
  defaultPreload: "intent",
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  defaultPendingComponent: PageLoader,
  defaultNotFoundComponent: NotFound,
  defaultErrorComponent: DefaultRouteError,
});

setSessionLostHandler(() => void router.navigate({ to: "/login", replace: true }));

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
