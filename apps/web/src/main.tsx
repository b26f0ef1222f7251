import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./a11y.css";
import { MantineProvider } from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { router } from "./router";
import { queryClient } from "./lib/trpc";
import { cssVariablesResolver, theme } from "./theme";

// The toast container loads after the first paint: toasts shown before it mounts wait in the store
// (see docs/decisions/082-first-load-budget.md).
const Toasts = lazy(() => import("./features/layout/Toasts"));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
