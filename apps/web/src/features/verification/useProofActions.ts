import { verificationMessages as m } from "@elo/shared";
import { useMutation } from "@tanstack/react-query";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { queryClient, trpc } from "../../lib/trpc";
import type { ReactNode } from "react";
import type { ProofActions } from "./ProofCard";
import { useAdminProofOpener } from "./PurposeDialog";

/** The reviewer's procedures: the school's staff, or an administrator. */
const api = (kind: "school" | "admin") => (kind === "school" ? trpc.school.verifications : trpc.admin.verifications);

/**
 * The queue's buttons over a reviewer's procedures. A decision another reviewer made first comes
 * back as a conflict: its toast says so and the list is reloaded.
 */
export function useProofActions(kind: "school" | "admin"): ProofActions & { dialog: ReactNode } {
  const procedures = api(kind);
  // The queue and the figures that count it (the school's home, the admin's summary).
  const refresh = () => queryClient.invalidateQueries({ queryKey: kind === "school" ? trpc.school.pathKey() : trpc.admin.verifications.pathKey() });
  const decided = { onError: (e: unknown) => notifyFailure(e, { title: m.decisionErrorTitle }), onSettled: refresh };
  const open = useMutation(trpc.school.verifications.open.mutationOptions());
  // An administrator states a purpose first (issue 27).
  const adminOpener = useAdminProofOpener(() => void refresh());
  const confirm = useMutation(procedures.confirm.mutationOptions({ ...decided, onSuccess: () => notifyOk(m.confirmedToast) }));
  const refuse = useMutation(procedures.refuse.mutationOptions({ ...decided, onSuccess: () => notifyOk(m.refusedToast) }));
  return {
    dialog: adminOpener.dialog,
    open: (id) => {
      if (kind === "admin") return adminOpener.request(id);
      // A proof downloads as an attachment (decision 110): pointing this page at its signed address
      // saves the file and leaves the queue where it is.
      open.mutate(
        { id },
        {
          onSuccess: ({ url }) => window.location.assign(url),
          onError: (e) => {
            notifyFailure(e, { title: m.openError });
            void refresh();
          },
        },
      );
    },
    confirm: (id) => confirm.mutate({ id }),
    refuse: (input) => refuse.mutate(input),
    busyId: confirm.isPending ? (confirm.variables?.id ?? null) : refuse.isPending ? (refuse.variables?.id ?? null) : null,
  };
}
