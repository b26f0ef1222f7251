import { LIMITS } from "@elo/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect } from "react";
import { trpc } from "../../lib/trpc";

/**
 * Keeps the signed-in user's header data fresh: a live subscription to their own profile row
 * (any tab, any server process) replaces `auth.me` and refreshes /meus-dados, and the avatar's
 * signed address (valid 1 hour) is renewed every 50 minutes.
 */
export function LiveProfile() {
  const queryClient = useQueryClient();
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const signedIn = !!me;

  useSubscription(
    trpc.profile.changes.subscriptionOptions(undefined, {
      enabled: signedIn,
      onData: (next) => {
        queryClient.setQueryData(trpc.auth.me.queryKey(), next);
        void queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
      },
    }),
  );

  useEffect(() => {
    if (!signedIn) return;
    const timer = setInterval(() => void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }), LIMITS.avatarRefreshMinutes * 60_000);
    return () => clearInterval(timer);
  }, [signedIn, queryClient]);

  return null;
}
