import { LIMITS, profileMessages, schoolMessages, schoolUi, type Toast } from "@elo/shared";
import { Avatar, Button, FileButton, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { uploadFile, UploadFailure } from "../../lib/upload";

/** What the logo upload's failure toast says: the row update keeps its own title, any other refusal is 'Erro no upload'. */
function uploadFailureToast(error: unknown): Toast {
  if (!(error instanceof UploadFailure)) return { title: schoolMessages.logoUploadError };
  if (error.toast.title === schoolMessages.saveErrorTitle) return error.toast;
  return { title: schoolMessages.logoUploadError, description: error.toast.description ?? error.toast.title };
}

/** The school logo: shows it, uploads a new one (image, 2 MB, school name first) and removes it. */
export function LogoField({ logoUrl, schoolName }: { logoUrl: string | null; schoolName: string }) {
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
  const remove = useMutation(
    trpc.school.data.deleteLogo.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.logoDeleted);
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: schoolMessages.logoDeleteError }),
    }),
  );

  const upload = async (file: File | null) => {
    if (!file) return;
    // The spec asks for the name first; the server checks size and type again from the bytes.
    if (!schoolName.trim()) return notifyError(schoolMessages.logoNeedsName);
    if (!file.type.startsWith("image/")) return notifyError({ title: schoolMessages.logoUploadError, description: profileMessages.avatarInvalidTypeDescription });
    if (file.size > LIMITS.schoolLogoMaxBytes) return notifyError({ title: schoolMessages.logoUploadError, description: schoolMessages.logoTooLarge });
    setSending(true);
    try {
      await uploadFile<{ logoUrl: string }>("/api/uploads/school-logo", file);
      await refresh();
      notifyOk(schoolMessages.logoUpdated);
    } catch (error) {
      notifyError(uploadFailureToast(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Group align="center" gap="lg" wrap="nowrap">
      <Avatar src={logoUrl} size={96} radius="md" alt={schoolUi.logo} data-testid="school-logo">
        {schoolName.charAt(0) || "?"}
      </Avatar>
      <Stack gap="xs">
        <Text fw={600}>{schoolUi.logo}</Text>
        <Text size="sm" c="dimmed">
          {logoUrl ? schoolUi.logoHint : `${schoolUi.noLogo} · ${schoolUi.logoHint}`}
        </Text>
        <Group gap="xs">
          <FileButton onChange={upload} accept="image/png,image/jpeg,image/webp,image/gif">
            {(props) => (
              <Button {...props} size="xs" variant="light" loading={sending}>
                {schoolUi.uploadLogo}
              </Button>
            )}
          </FileButton>
          {logoUrl && (
            <Button size="xs" color="red" variant="light" loading={remove.isPending} onClick={() => remove.mutate()}>
              {schoolUi.deleteLogo}
            </Button>
          )}
        </Group>
      </Stack>
    </Group>
  );
}
