import { emailConfirmationMessages as m } from "@elo/shared";
import { useMutation } from "@tanstack/react-query";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { queryClient, trpc } from "../../lib/trpc";

/** 'Reenviar e-mail': a new confirmation link, with the server's toast when the quota is spent. */
export function useResendConfirmation() {
  return useMutation(
    trpc.auth.resendConfirmation.mutationOptions({
      onSuccess: (result) => {
        if (result.alreadyConfirmed) {
          notifyOk(m.alreadyConfirmed);
          void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
          return;
        }
        notifyOk({ title: m.resentTitle, description: m.resentDescription });
      },
      onError: (error) => notifyFailure(error, { title: m.tooManyTitle }),
    }),
  );
}
