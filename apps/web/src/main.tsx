import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./a11y.css";
import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./App";
import { router } from "./router";
import { queryClient } from "./lib/trpc";

const container = document.getElementById("root")!;
const app = <App router={router} queryClient={queryClient} />;
// The landing pages arrive rendered by the build (decision 163): once the route's code is loaded,
// React takes over the same markup instead of painting it again. `ssr` set is how the router knows
// it hydrates (as its own hydrate() does): it then renders the matches as the server did. Inside a
// transition React hydrates in slices, giving the main thread back every few milliseconds, so a phone
// can scroll and tap while the page takes over (one long task without it).
if (container.hasAttribute("data-prerendered")) {
  void router.load().then(() => {
    router.ssr = { manifest: undefined };
    startTransition(() => {
      hydrateRoot(container, app);
    });
  });
} else createRoot(container).render(app);
