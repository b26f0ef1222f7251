import type { AppRouter } from "@elo/server";
import { accessMessages, LIMITS } from "@elo/shared";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, isNonJsonSerializable, splitLink, TRPCClientError } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import { notifyError } from "./notify";

export type { AppRouter };

/** Where to go once the session is gone; the router registers it (it imports this file, not the reverse). */
let onSessionLost: () => void = () => {};
export function setSessionLostHandler(handler: () => void) {
  onSessionLost = handler;
}

/**
 * A request answered UNAUTHORIZED while we believed someone was signed in: the session was revoked
 * elsewhere (logout on another device, password reset, expiry). Forget the user and every cached
 * answer, say so, and go to /login. Anonymous visitors (auth.me null) and the login form's own
 * "wrong password" answer are left alone; once auth.me is null, further failures do nothing.
 */
function handleUnauthorized(error: unknown) {
  if (!(error instanceof TRPCClientError) || error.data?.code !== "UNAUTHORIZED") return;
  const meKey = trpc.auth.me.queryKey();
  if (!queryClient.getQueryData(meKey)) return;
  queryClient.setQueryData(meKey, null);
  const meHash = JSON.stringify(meKey);
  queryClient.removeQueries({ predicate: (q) => JSON.stringify(q.queryKey) !== meHash });
  notifyError(accessMessages.unauthenticated);
  onSessionLost();
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: handleUnauthorized }),
  mutationCache: new MutationCache({ onError: handleUnauthorized }),
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
        false: httpBatchLink({ url: "/trpc", transformer: superjson, maxURLLength: 4000, maxItems: LIMITS.batchMaxCalls }),
      }),
    }),
  ],
});

/** Query and mutation options for every procedure: `useQuery(trpc.reference.states.queryOptions())`. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
