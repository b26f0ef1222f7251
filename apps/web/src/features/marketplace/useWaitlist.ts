import { marketplaceMessages as m, waitlistMessages as w } from "@elo/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { errorToast, notifyError, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** Join, leave (or decline an offer) and claim an offer of one benefit's waitlist (decision 123). */
export function useWaitlist(discountId: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.marketplace.list.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.waitlist.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.claim.pathKey() });
  };
  /** The server's toast; an incomplete profile goes to /meus-dados, as a claim does. */
  const onError = (fallback: string) => async (error: unknown) => {
    const toast = errorToast(error, { title: fallback });
    notifyError(toast);
    const reason = (error as { data?: { meta?: { reason?: string } } }).data?.meta?.reason;
    if (reason === "incomplete" || reason === "proof_missing") await navigate({ to: "/meus-dados" });
    else await refresh();
  };
  const join = useMutation(
    trpc.waitlist.join.mutationOptions({
      onSuccess: async () => {
        notifyOk({ title: w.joined, description: w.joinedDescription });
        await refresh();
      },
      onError: onError(w.joinError),
    }),
  );
  const leave = useMutation(
    trpc.waitlist.leave.mutationOptions({
      onSuccess: async ({ declinedOffer }) => {
        notifyOk(declinedOffer ? w.declined : w.left);
        await refresh();
      },
      onError: onError(w.leaveError),
    }),
  );
  const claimOffer = useMutation(
    trpc.waitlist.claimOffer.mutationOptions({
      onSuccess: async ({ transactionId }) => {
        await refresh();
        await navigate({ to: "/confirmacao-desconto", search: { transaction: transactionId } });
      },
      onError: onError(m.claimErrorTitle),
    }),
  );
  const input = { discountId };
  return {
    join: () => join.mutate(input),
    leave: () => leave.mutate(input),
    claimOffer: () => claimOffer.mutate(input),
    busy: join.isPending || leave.isPending || claimOffer.isPending,
    pending: { join: join.isPending, leave: leave.isPending, claimOffer: claimOffer.isPending },
  };
}
