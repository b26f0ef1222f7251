import { schoolMessages } from "@elo/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** Pause and reactivate mutations with the spec's toasts; both refresh the school's queries. */
export function useBenefitStatus() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
  const pause = useMutation(
    trpc.school.benefits.pause.mutationOptions({
      onSuccess: () => {
        notifyOk({ title: schoolMessages.pausedTitle, description: schoolMessages.pausedDescription });
        return refresh();
      },
      onError: (error) => notifyFailure(error, { title: schoolMessages.pauseErrorTitle, description: schoolMessages.pauseErrorDescription }),
    }),
  );
  const reactivate = useMutation(
    trpc.school.benefits.reactivate.mutationOptions({
      onSuccess: () => {
        notifyOk({ title: schoolMessages.reactivatedTitle, description: schoolMessages.reactivatedDescription });
        return refresh();
      },
      onError: (error) => notifyFailure(error, { title: schoolMessages.reactivateErrorTitle, description: schoolMessages.reactivateErrorDescription }),
    }),
  );
  return { pause, reactivate };
}
