import { adminMessages, LIMITS } from "@elo/shared";
import { useMutation } from "@tanstack/react-query";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

const LOGO_TYPES = new Set(["image/jpeg", "image/jpg", "image/png", "image/webp"]);

/** Sends an admin logo (checked here for a quick answer; the server checks the bytes again). */
export function useLogoUpload(schoolId: string, onDone: () => unknown) {
  const upload = useMutation(
    trpc.admin.schools.uploadLogo.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminMessages.logoUpdated);
        await onDone();
      },
      onError: (error) => notifyFailure(error, { title: adminMessages.logoUploadError }),
    }),
  );
  function start(file: File | null) {
    if (!file) return;
    if (file.size > LIMITS.adminLogoMaxBytes) return notifyError(adminMessages.logoTooLarge);
    if (!LOGO_TYPES.has(file.type)) return notifyError(adminMessages.logoBadType);
    const body = new FormData();
    body.append("schoolId", schoolId);
    body.append("file", file);
    upload.mutate(body);
  }
  return { start, pending: upload.isPending };
}
