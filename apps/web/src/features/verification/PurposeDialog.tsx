import { ACCESS_PURPOSE_LABELS, accessLogMessages as m, ADMIN_ACCESS_PURPOSES, verificationMessages as v, type AccessPurpose } from "@elo/shared";
import { Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { notifyFailure } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/**
 * An administrator opens a proof only after choosing why (issue 27): the purpose (and the ticket for
 * support) goes with the request; the server refuses without it and e-mails the parent.
 * Returns `request(id)` to ask, and the dialog to render.
 */
export function useAdminProofOpener(onError?: () => void): { request: (id: string) => void; dialog: ReactNode; pendingId: string | null } {
  const [proofId, setProofId] = useState<string | null>(null);
  const [purpose, setPurpose] = useState<AccessPurpose | null>(null);
  const [ticket, setTicket] = useState("");
  const [error, setError] = useState<string | null>(null);
  const open = useMutation(trpc.admin.verifications.open.mutationOptions());
  const close = () => {
    setProofId(null);
    setPurpose(null);
    setTicket("");
    setError(null);
  };
  const submit = () => {
    if (!proofId) return;
    if (!purpose) return setError(m.purposeRequired);
    if (purpose === "suporte" && !ticket.trim()) return setError(m.ticketRequired);
    open.mutate(
      { id: proofId, purpose, ticket: purpose === "suporte" ? ticket.trim() : null },
      {
        onSuccess: ({ url }) => {
          close();
          // A proof downloads as an attachment (decision 110): the page stays where it is.
          window.location.assign(url);
        },
        onError: (e) => {
          notifyFailure(e, { title: v.openError });
          onError?.();
        },
      },
    );
  };
  const dialog = (
    <Modal opened={proofId !== null} onClose={close} title={m.purposeDialogTitle} centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {m.purposeDialogText}
        </Text>
        <Select
          label={m.purposeLabel}
          data={ADMIN_ACCESS_PURPOSES.map((p) => ({ value: p, label: ACCESS_PURPOSE_LABELS[p] }))}
          value={purpose}
          onChange={(value) => {
            setPurpose(value as AccessPurpose | null);
            setError(null);
          }}
          error={!purpose ? error : null}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="access-purpose"
        />
        {purpose === "suporte" && (
          <TextInput label={m.ticketLabel} value={ticket} onChange={(e) => setTicket(e.currentTarget.value)} maxLength={40} error={purpose && error ? error : null} withAsterisk />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {v.cancel}
          </Button>
          <Button onClick={submit} loading={open.isPending}>
            {m.purposeDialogOpen}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
  return { request: (id) => setProofId(id), dialog, pendingId: open.isPending ? proofId : null };
}
