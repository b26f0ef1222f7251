import { Box } from "@mantine/core";
import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { EmailConfirmationBanner } from "../features/auth/EmailConfirmationBanner";
import { Footer } from "../features/layout/Footer";
import { Header } from "../features/layout/Header";
import { LiveProfile } from "../features/profile/LiveProfile";
import type { RouterContext } from "../lib/guards";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

function RootLayout() {
  return (
    <Box mih="100vh" style={{ display: "flex", flexDirection: "column" }}>
      <Header />
      <EmailConfirmationBanner />
      <LiveProfile />
      <Box component="main" style={{ flex: 1 }}>
        <Outlet />
      </Box>
      <Footer />
    </Box>
  );
}
