import type { AppRouter } from "@elo/server";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, isNonJsonSerializable, splitLink, TRPCClientError } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import superjson from "superjson";

export type { AppRouter };

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => count < 2 && !(error instanceof TRPCClientError && error.data?.httpStatus < 500),
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      // Subscriptions (live profile updates) run over server-sent events.
      condition: (op) => op.type === "subscription",
      true: httpSubscriptionLink({ url: "/trpc", transformer: superjson }),
      // FormData (the CSV upload) cannot be batched: it goes alone, as multipart.
      false: splitLink({
        condition: (op) => isNonJsonSerializable(op.input),
        true: httpLink({ url: "/trpc", transformer: superjson }),
        false: httpBatchLink({ url: "/trpc", transformer: superjson, maxURLLength: 4000 }),
      }),
    }),
  ],
});

/** Query and mutation options for every procedure: `useQuery(trpc.reference.states.queryOptions())`. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
