import { schoolMessages } from "@elo/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorToast, notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** The server's explanation of a failure (its toast's description, else its title). */
function underlying(error: { message: string }): string {
  const toast = errorToast(error, { title: error.message });
  return toast.description ?? toast.title;
}

/**
 * Pause and reactivate mutations with the spec's toasts; both refresh the school's queries. The
 * spec words pausing differently per page: 'Benefício pausado' on /home-instituicao, 'Desconto
 * pausado' on /painel-de-beneficios (spec 2 §8).
 */
export function useBenefitStatus(page: "home" | "panel" = "home") {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
  const pause = useMutation(
    trpc.school.benefits.pause.mutationOptions({
      onSuccess: () => {
        notifyOk(page === "panel" ? schoolMessages.discountPaused : { title: schoolMessages.pausedTitle, description: schoolMessages.pausedDescription });
        return refresh();
      },
      onError: (error) =>
        page === "panel"
          ? notifyError({ title: schoolMessages.discountPauseError, description: underlying(error) })
          : notifyFailure(error, { title: schoolMessages.pauseErrorTitle, description: schoolMessages.pauseErrorDescription }),
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
