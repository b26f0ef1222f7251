import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { trpc } from "../../lib/trpc";

/** 'Sair': ends the session, forgets every cached query but `auth.me` (set to nobody) and goes to /. */
export function useLogout(onDone?: () => void) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation(
    trpc.auth.logout.mutationOptions({
      onSettled: async () => {
        queryClient.setQueryData(trpc.auth.me.queryKey(), null);
        queryClient.removeQueries({ predicate: (q) => JSON.stringify(q.queryKey) !== JSON.stringify(trpc.auth.me.queryKey()) });
        onDone?.();
        await navigate({ to: "/" });
      },
    }),
  );
}
