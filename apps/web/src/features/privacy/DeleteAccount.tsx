import { Button, Card, Checkbox, Group, Modal, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { LIMITS, privacyMessages, privacyPageMessages as m } from "@elo/shared";
import { useDisclosure } from "@mantine/hooks";
import { IconTrash } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** Account deletion: a confirmation dialog with the current password, then sign-out and back to /. */
export function DeleteAccount() {
  const [opened, { open, close }] = useDisclosure(false);
  const [understood, setUnderstood] = useState(false);
  const [password, setPassword] = useState("");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Every way out of the dialog (Cancelar, Escape, the close button, a click outside) forgets the
  // confirmation and the password, so reopening it never starts with "I understand" already ticked.
  const dismiss = () => {
    close();
    setUnderstood(false);
    setPassword("");
  };
  const remove = useMutation(
    trpc.privacy.deleteAccount.mutationOptions({
      onSuccess: async () => {
        close();
        queryClient.setQueryData(trpc.auth.me.queryKey(), null);
        queryClient.removeQueries({ predicate: (q) => JSON.stringify(q.queryKey) !== JSON.stringify(trpc.auth.me.queryKey()) });
        notifyOk(privacyMessages.deleted);
        await navigate({ to: "/", replace: true });
      },
      onError: (error) => notifyFailure(error, { title: privacyMessages.deleteError, description: error.message }),
    }),
  );

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="delete-title" style={{ borderColor: "var(--mantine-color-red-3)" }}>
      <Stack gap="sm">
        <Title order={2} fz="h3" id="delete-title" c="red.8">
          {m.deleteTitle}
        </Title>
        <Text c="dimmed">{m.deleteText}</Text>
        <Button color="red" variant="light" leftSection={<IconTrash size={18} />} onClick={open} w={{ base: "100%", sm: "fit-content" }}>
          {m.deleteButton}
        </Button>
      </Stack>
      <Modal
        opened={opened}
        onClose={dismiss}
        title={m.deleteConfirmTitle}
        centered
        closeButtonProps={{ "aria-label": m.cancel }}
      >
        <Stack gap="md">
          <Text>{m.deleteConfirmText}</Text>
          <Checkbox label={m.deleteConfirmCheckbox} checked={understood} onChange={(e) => setUnderstood(e.currentTarget.checked)} />
          <PasswordInput
            label={m.deletePasswordLabel}
            description={m.deletePasswordDescription}
            autoComplete="current-password"
            maxLength={LIMITS.passwordMax}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={dismiss}>
              {m.cancel}
            </Button>
            <Button color="red" disabled={!understood || !password} loading={remove.isPending} onClick={() => remove.mutate({ password })}>
              {m.deleteConfirmButton}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
