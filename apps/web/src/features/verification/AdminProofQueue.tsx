import { formatDate, verificationMessages as m } from "@elo/shared";
import { Card, SegmentedControl, SimpleGrid, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { trpc } from "../../lib/trpc";
import { Section } from "./ConfirmEnrollmentsPage";
import { useProofActions } from "./useProofActions";

/** /admin-pais 'Matrículas a confirmar': pending proofs of schools without staff (or of all schools). */
export function AdminProofQueue() {
  const [scope, setScope] = useState<"unstaffed" | "all">("unstaffed");
  const list = useQuery(trpc.admin.verifications.list.queryOptions({ scope }));
  const summary = useQuery(trpc.admin.verifications.summary.queryOptions());
  const actions = useProofActions("admin");
  const f = summary.data;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        {f && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="verification-figures">
            <Figure label={m.adminBacklog} value={f.waiting.toLocaleString("pt-BR")} note={[m.adminUnstaffed(f.waitingUnstaffed), f.oldestWaitingSince ? m.adminOldest(formatDate(f.oldestWaitingSince)) : null]} />
            <Figure label={m.adminMedian} value={f.medianHoursToDecision === null ? "—" : m.hours(f.medianHoursToDecision)} note={[m.adminMedianNote(f.windowDays, f.decidedInWindow)]} />
          </SimpleGrid>
        )}
        <Text c="dimmed" size="sm">
          {m.adminIntro}
        </Text>
        <SegmentedControl
          value={scope}
          onChange={(v) => setScope(v as "unstaffed" | "all")}
          data={[
            { value: "unstaffed", label: m.adminScopeUnstaffed },
            { value: "all", label: m.adminScopeAll },
          ]}
          style={{ alignSelf: "flex-start" }}
        />
        <Section title={m.adminTitle} empty={m.emptyPending} rows={list.data ?? []} actions={actions} showSchool />
        {actions.dialog}
      </Stack>
    </Card>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note: (string | null)[] }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value}
      </Text>
      {note.filter(Boolean).map((n) => (
        <Text key={n} size="xs" c="dimmed">
          {n}
        </Text>
      ))}
    </Card>
  );
}
