import { accessLogMessages as m, formatDateTime, verificationMessages as v } from "@elo/shared";
import { Badge, Button, Card, Group, List, Modal, NumberInput, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { queryClient, trpc } from "../../lib/trpc";
import { IncidentEditModal, type EditableIncident } from "./IncidentEditModal";

const empty = { title: "", detectedAt: "", windowFrom: "", windowTo: "", nature: "", accountsAffected: 0, childrenAffected: 0, measures: "", communicatedAt: "" };
/** A `datetime-local` value (the browser's time, São Paulo for the team) as an instant, or null. */
const instant = (value: string) => (value ? new Date(value) : null);

const FIELD_LABELS: Record<string, string> = {
  status: m.incidentStatusLabel,
  nature: m.incidentNatureLabel,
  accountsAffected: m.incidentAccountsLabel,
  childrenAffected: m.incidentChildrenLabel,
  measures: m.incidentMeasuresLabel,
  risks: m.incidentRisksLabel,
  delayReason: m.incidentDelayLabel,
  anpdCommunicatedAt: m.incidentAnpdLabel,
  holdersCommunicatedAt: m.incidentHoldersLabel,
};
const fieldLabel = (field: string) => FIELD_LABELS[field] ?? field;

/** The register of security incidents (Resolução CD/ANPD 15/2024), kept 5 years (issue 27). */
export function IncidentsCard() {
  const list = useQuery(trpc.admin.incidents.list.queryOptions());
  const [opened, setOpened] = useState(false);
  const [editing, setEditing] = useState<EditableIncident | null>(null);
  const [form, setForm] = useState(empty);
  const create = useMutation(
    trpc.admin.incidents.create.mutationOptions({
      onSuccess: () => {
        notifyOk(m.incidentSaved);
        setOpened(false);
        setForm(empty);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.incidents.pathKey() });
      },
      onError: (e) => notifyFailure(e, { title: m.incidentNew }),
    }),
  );
  // The value is read in the handler: React's event has no currentTarget by the time an updater runs.
  const set = (key: keyof typeof empty) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setForm((f) => ({ ...f, [key]: value }));
  };
  const submit = () =>
    create.mutate({
      title: form.title,
      detectedAt: instant(form.detectedAt) ?? new Date(Number.NaN),
      windowFrom: instant(form.windowFrom) ?? new Date(Number.NaN),
      windowTo: instant(form.windowTo) ?? new Date(Number.NaN),
      nature: form.nature,
      accountsAffected: form.accountsAffected,
      childrenAffected: form.childrenAffected,
      measures: form.measures,
      communicatedAt: instant(form.communicatedAt),
    });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="incidents-title" data-testid="incidents">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h3" id="incidents-title">
            {m.incidentsTitle}
          </Title>
          <Button variant="light" onClick={() => setOpened(true)}>
            {m.incidentNew}
          </Button>
        </Group>
        <Text c="dimmed" size="sm">
          {m.incidentsIntro}
        </Text>
        {!list.data?.length ? (
          <Text size="sm">{m.incidentsEmpty}</Text>
        ) : (
          list.data.map((i) => (
            <Paper key={i.id} withBorder radius="md" p="sm" data-testid="incident">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Group gap="xs">
                  <Text fw={600}>{i.title}</Text>
                  <Badge variant="light" color={i.status === "encerrado" ? "gray" : i.status === "contido" ? "yellow" : "red"}>
                    {m.incidentStatusLabels[i.status]}
                  </Badge>
                </Group>
                <Button size="xs" variant="default" onClick={() => setEditing(i)}>
                  {m.incidentEdit}
                </Button>
              </Group>
              <Text size="sm" c="dimmed">
                {m.incidentDetectedLabel}: {formatDateTime(i.detectedAt)} · {m.incidentWindowFromLabel}: {formatDateTime(i.windowFrom)} · {m.incidentWindowToLabel}: {formatDateTime(i.windowTo)}
              </Text>
              <Text size="sm">
                {m.incidentAccountsLabel}: {i.accountsAffected} · {m.incidentChildrenLabel}: {i.childrenAffected}
              </Text>
              <Text size="sm">
                {m.incidentNatureLabel}: {i.nature}
              </Text>
              <Text size="sm">
                {m.incidentMeasuresLabel}: {i.measures}
              </Text>
              {i.risks && (
                <Text size="sm">
                  {m.incidentRisksLabel}: {i.risks}
                </Text>
              )}
              {i.delayReason && (
                <Text size="sm">
                  {m.incidentDelayLabel}: {i.delayReason}
                </Text>
              )}
              <Text size="sm" c="dimmed">
                {m.incidentAnpdLabel}: {i.anpdCommunicatedAt ? formatDateTime(i.anpdCommunicatedAt) : m.incidentNotCommunicated} · {m.incidentHoldersLabel}:{" "}
                {i.holdersCommunicatedAt ? formatDateTime(i.holdersCommunicatedAt) : m.incidentNotCommunicated}
              </Text>
              <Text size="sm" fw={500} mt="xs">
                {m.incidentHistory}
              </Text>
              {i.history.length === 0 ? (
                <Text size="xs" c="dimmed">
                  {m.incidentHistoryEmpty}
                </Text>
              ) : (
                <List size="xs" data-testid="incident-history">
                  {i.history.map((r) => (
                    <List.Item key={`${r.changedAt}-${Object.keys(r.changes).join()}`}>
                      {formatDateTime(r.changedAt)} · {r.changedByEmail ?? "—"} {m.incidentHistoryVia[r.via]}: {Object.keys(r.changes).map(fieldLabel).join(", ")}
                    </List.Item>
                  ))}
                </List>
              )}
            </Paper>
          ))
        )}
      </Stack>
      {editing && <IncidentEditModal incident={editing} onClose={() => setEditing(null)} />}
      <Modal opened={opened} onClose={() => setOpened(false)} title={m.incidentNew} size="lg" centered>
        <Stack gap="sm">
          <TextInput label={m.incidentTitleLabel} value={form.title} onChange={set("title")} maxLength={200} required />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput type="datetime-local" label={m.incidentDetectedLabel} value={form.detectedAt} onChange={set("detectedAt")} required />
            <TextInput type="datetime-local" label={m.incidentWindowFromLabel} value={form.windowFrom} onChange={set("windowFrom")} required />
            <TextInput type="datetime-local" label={m.incidentWindowToLabel} value={form.windowTo} onChange={set("windowTo")} required />
          </SimpleGrid>
          <Textarea label={m.incidentNatureLabel} value={form.nature} onChange={set("nature")} maxLength={2000} autosize minRows={2} required />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput label={m.incidentAccountsLabel} value={form.accountsAffected} onChange={(n) => setForm((f) => ({ ...f, accountsAffected: Number(n) || 0 }))} min={0} allowDecimal={false} />
            <NumberInput label={m.incidentChildrenLabel} value={form.childrenAffected} onChange={(n) => setForm((f) => ({ ...f, childrenAffected: Number(n) || 0 }))} min={0} allowDecimal={false} />
          </SimpleGrid>
          <Textarea label={m.incidentMeasuresLabel} value={form.measures} onChange={set("measures")} maxLength={4000} autosize minRows={2} required />
          <TextInput type="datetime-local" label={m.incidentCommunicatedLabel} value={form.communicatedAt} onChange={set("communicatedAt")} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {v.cancel}
            </Button>
            <Button onClick={submit} loading={create.isPending}>
              {m.incidentNew}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
