import type { QueryClient } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

/** After signing in or out: drop the previous user's cached data and reload `auth.me`. */
export async function refreshSession(queryClient: QueryClient) {
  const meKey = JSON.stringify(trpc.auth.me.queryKey());
  queryClient.removeQueries({ predicate: (q) => JSON.stringify(q.queryKey) !== meKey });
  await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey(), refetchType: "none" });
  await queryClient.fetchQuery({ ...trpc.auth.me.queryOptions(), staleTime: 0 });
}
