import { Box } from "@mantine/core";
import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { Footer } from "../features/layout/Footer";
import { Header } from "../features/layout/Header";
import { LiveProfile } from "../features/profile/LiveProfile";
import type { RouterContext } from "../lib/guards";

// Shown to few (signed in, address not confirmed): it loads after the first paint (decision 082).
const EmailConfirmationBanner = lazy(() => import("../features/auth/EmailConfirmationBanner").then((m) => ({ default: m.EmailConfirmationBanner })));

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

function RootLayout() {
  return (
    <Box mih="100vh" style={{ display: "flex", flexDirection: "column" }}>
      <Header />
      <Suspense fallback={null}>
        <EmailConfirmationBanner />
      </Suspense>
      <LiveProfile />
      <Box component="main" style={{ flex: 1 }}>
        <Outlet />
      </Box>
      <Footer />
    </Box>
  );
}
