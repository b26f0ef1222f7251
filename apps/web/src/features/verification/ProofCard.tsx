import { formatDate, PROOF_REFUSAL_REASON_LABELS, PROOF_REFUSAL_REASONS, PROOF_STATUS_LABELS, verificationMessages as m, type ProofRefusalReason } from "@elo/shared";
import { Badge, Button, Card, Group, Select, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import type { ProofRow } from "./types";

const STATUS_COLOR = { enviado: "blue", verificado: "teal", recusado: "red" } as const;
const REASONS = PROOF_REFUSAL_REASONS.map((r) => ({ value: r, label: PROOF_REFUSAL_REASON_LABELS[r] }));

export interface ProofActions {
  open: (id: string) => void;
  confirm: (id: string) => void;
  refuse: (input: { id: string; reason: ProofRefusalReason; note: string | null }) => void;
  /** The id being decided right now (its buttons spin, the others wait). */
  busyId: string | null;
}

/** One proof in a review queue: who, which student and class, when, the file, and the decision. */
export function ProofCard({ row, actions, showSchool }: { row: ProofRow; actions: ProofActions; showSchool?: boolean }) {
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState<ProofRefusalReason | null>(null);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const pending = row.status === "enviado";
  const busy = actions.busyId !== null;

  const submitRefusal = () => {
    if (!reason) return setError(m.reasonRequired);
    if (reason === "outro" && !note.trim()) return setError(m.noteRequired);
    actions.refuse({ id: row.id, reason, note: note.trim() || null });
  };

  return (
    <Card withBorder radius="md" padding="md" data-testid="proof-card">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={700}>{row.studentName ?? m.notDeclared}</Text>
          <Group gap={6}>
            <Badge variant="light" color="gray">
              {row.main ? m.kindMain : m.kindOther}
            </Badge>
            <Badge variant="light" color={STATUS_COLOR[row.status]}>
              {PROOF_STATUS_LABELS[row.status]}
            </Badge>
          </Group>
        </Group>
        <Text size="sm">
          {m.parent}: <strong>{row.parentName ?? "—"}</strong>
        </Text>
        <Text size="sm">
          {m.declaredClass}: {row.declaredClass ?? m.notDeclared}
        </Text>
        {showSchool && (
          <Text size="sm">
            {m.school}: {row.schoolName}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {m.submittedAt} {formatDate(row.submittedAt)}
        </Text>
        {!pending && row.decidedAt && (
          <Text size="sm" c="dimmed">
            {m.decidedBy(row.decidedByAdmin ? m.platformTeam : (row.decidedByName ?? row.schoolName), formatDate(row.decidedAt))}
            {row.refusalReason && ` — ${PROOF_REFUSAL_REASON_LABELS[row.refusalReason]}${row.refusalNote ? `: ${row.refusalNote}` : ""}`}
          </Text>
        )}
        <Group gap="xs" mt={4} wrap="wrap">
          <Button variant="default" size="xs" onClick={() => actions.open(row.id)}>
            {m.openProof}
          </Button>
          {pending && !refusing && (
            <>
              <Button size="xs" color="teal" loading={actions.busyId === row.id} disabled={busy} onClick={() => actions.confirm(row.id)}>
                {m.confirm}
              </Button>
              <Button size="xs" color="red" variant="light" disabled={busy} onClick={() => setRefusing(true)}>
                {m.refuse}
              </Button>
            </>
          )}
        </Group>
        {pending && refusing && (
          <Stack gap="xs" mt={4}>
            <Select label={m.reasonLabel} data={REASONS} value={reason} onChange={(v) => (setReason(v as ProofRefusalReason | null), setError(null))} error={!reason ? error : undefined} allowDeselect={false} />
            <Textarea label={m.noteLabel} value={note} maxLength={300} autosize minRows={2} onChange={(e) => (setNote(e.currentTarget.value), setError(null))} error={reason ? error : undefined} />
            <Group gap="xs">
              <Button size="xs" color="red" loading={actions.busyId === row.id} disabled={busy} onClick={submitRefusal}>
                {m.refuse}
              </Button>
              <Button size="xs" variant="default" onClick={() => setRefusing(false)}>
                {m.cancel}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
