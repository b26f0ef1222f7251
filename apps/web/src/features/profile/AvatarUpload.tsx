import { LIMITS, profileMessages as m, profileUi as ui, schoolUi } from "@elo/shared";
import { Avatar, FileButton, Group, Stack, Text, Button } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { notifyError, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { uploadFile, UploadFailure } from "../../lib/upload";
import { avatarLetter } from "../layout/navigation";

/** The profile picture with 'Alterar foto': an image of at most 2MB (checked here and on the server). */
export function AvatarUpload({ avatarUrl, fullName, email }: { avatarUrl: string | null; fullName: string | null; email: string }) {
  const [sending, setSending] = useState(false);
  const queryClient = useQueryClient();

  const upload = async (file: File | null) => {
    if (!file) return;
    if (!file.type.startsWith("image/")) return notifyError({ title: m.avatarInvalidTypeTitle, description: m.avatarInvalidTypeDescription });
    if (file.size > LIMITS.avatarMaxBytes) return notifyError({ title: m.avatarTooLargeTitle, description: m.avatarTooLargeDescription });
    setSending(true);
    try {
      const { avatarUrl: next } = await uploadFile<{ avatarUrl: string }>("/api/uploads/avatar", file);
      queryClient.setQueryData(trpc.auth.me.queryKey(), (me) => (me ? { ...me, avatarUrl: next } : me));
      await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
      notifyOk(m.avatarUpdated);
    } catch (error) {
      notifyError(error instanceof UploadFailure ? error.toast : { title: m.avatarUploadErrorTitle, description: m.avatarUploadErrorDescription });
    } finally {
      setSending(false);
    }
  };

  return (
    <Group gap="md">
      <Avatar src={avatarUrl} size={84} radius={84} color="blue" alt={ui.avatarAlt} data-testid="profile-avatar">
        {avatarLetter(fullName, email)}
      </Avatar>
      <Stack gap={4}>
        <FileButton onChange={upload} accept="image/png,image/jpeg,image/webp,image/gif">
          {(props) => (
            <Button {...props} variant="light" loading={sending}>
              {ui.changePhoto}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {schoolUi.logoHint}
        </Text>
      </Stack>
    </Group>
  );
}
