import { ACCESS_PURPOSE_LABELS, accessLogMessages as m, ADMIN_ACCESS_PURPOSES, verificationMessages as v, type AccessPurpose } from "@elo/shared";
import { Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { notifyFailure } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

export type StatedPurpose = { purpose: AccessPurpose; ticket: string | null };

/**
 * The administrator's purpose dialog (issue 27): a purpose from the fixed list, and the ticket for
 * support; `onConfirm` receives them. Used to open a proof and to see the parents' table.
 */
export function PurposeModal(props: { opened: boolean; title: string; text: string; confirmLabel: string; loading?: boolean; onClose: () => void; onConfirm: (why: StatedPurpose) => void }) {
  const [purpose, setPurpose] = useState<AccessPurpose | null>(null);
  const [ticket, setTicket] = useState("");
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setPurpose(null);
    setTicket("");
    setError(null);
    props.onClose();
  };
  const submit = () => {
    if (!purpose) return setError(m.purposeRequired);
    if (purpose === "suporte" && !ticket.trim()) return setError(m.ticketRequired);
    props.onConfirm({ purpose, ticket: purpose === "suporte" ? ticket.trim() : null });
  };
  return (
    <Modal opened={props.opened} onClose={close} title={props.title} centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {props.text}
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
          <Button onClick={submit} loading={props.loading}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * An administrator opens a proof only after choosing why (issue 27): the purpose (and the ticket for
 * support) goes with the request; the server refuses without it and e-mails the parent.
 * Returns `request(id)` to ask, and the dialog to render.
 */
export function useAdminProofOpener(onError?: () => void): { request: (id: string) => void; dialog: ReactNode; pendingId: string | null } {
  const [proofId, setProofId] = useState<string | null>(null);
  const open = useMutation(trpc.admin.verifications.open.mutationOptions());
  const dialog = (
    <PurposeModal
      key={proofId ?? "closed"}
      opened={proofId !== null}
      title={m.purposeDialogTitle}
      text={m.purposeDialogText}
      confirmLabel={m.purposeDialogOpen}
      loading={open.isPending}
      onClose={() => setProofId(null)}
      onConfirm={(why) => {
        if (!proofId) return;
        open.mutate(
          { id: proofId, ...why },
          {
            onSuccess: ({ url }) => {
              setProofId(null);
              // A proof downloads as an attachment (decision 110): the page stays where it is.
              window.location.assign(url);
            },
            onError: (e) => {
              notifyFailure(e, { title: v.openError });
              onError?.();
            },
          },
        );
      }}
    />
  );
  return { request: (id) => setProofId(id), dialog, pendingId: open.isPending ? proofId : null };
}
