import { MantineProvider } from "@mantine/core";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type AnyRouter, RouterProvider } from "@tanstack/react-router";
import { lazy, StrictMode, Suspense, useEffect } from "react";
import { cssVariablesResolver, theme } from "./theme";

// The toast container loads after the first paint: toasts shown before it mounts wait in the store
// (see docs/decisions/082-first-load-budget.md).
const Toasts = lazy(() => import("./features/layout/Toasts"));

/** The whole app around a router: the browser renders it, and the build renders the landing pages with it. */
export function App({ router, queryClient }: { router: AnyRouter; queryClient: QueryClient }) {
  // Marks the page as live (its controls answer): the browser tests wait for it on a rendered landing page.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}
