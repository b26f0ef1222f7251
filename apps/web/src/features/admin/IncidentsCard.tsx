import { accessLogMessages as m, formatDateTime, verificationMessages as v } from "@elo/shared";
import { Button, Card, Group, Modal, NumberInput, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { queryClient, trpc } from "../../lib/trpc";

const empty = { title: "", detectedAt: "", windowFrom: "", windowTo: "", nature: "", accountsAffected: 0, childrenAffected: 0, measures: "", communicatedAt: "" };
/** A `datetime-local` value (the browser's time, São Paulo for the team) as an instant, or null. */
const instant = (value: string) => (value ? new Date(value) : null);

/** The register of security incidents (Resolução CD/ANPD 15/2024), kept 5 years (issue 27). */
export function IncidentsCard() {
  const list = useQuery(trpc.admin.incidents.list.queryOptions());
  const [opened, setOpened] = useState(false);
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
            <Paper key={i.id} withBorder radius="md" p="sm">
              <Text fw={600}>{i.title}</Text>
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
              <Text size="sm" c="dimmed">
                {m.incidentCommunicatedLabel}: {i.communicatedAt ? formatDateTime(i.communicatedAt) : m.incidentNotCommunicated}
              </Text>
            </Paper>
          ))
        )}
      </Stack>
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
