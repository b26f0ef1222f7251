import { createAppRouter } from "./create-router";
import { queryClient, setSessionLostHandler } from "./lib/trpc";

export const router = createAppRouter(queryClient);

setSessionLostHandler(() => void router.navigate({ to: "/login", replace: true }));

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
