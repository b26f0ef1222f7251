import { WEBHOOK_MAX_ENDPOINTS, webhookEventLabels, webhookMessages as m, type WebhookEventType } from "@elo/shared";
import { Alert, Badge, Button, Card, Code, CopyButton, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fieldErrors, notifyFailure, notifyOk } from "../../../lib/notify";
import { trpc } from "../../../lib/trpc";
import { DeliveryLog } from "./DeliveryLog";
import { EndpointForm, type EndpointDraft } from "./EndpointForm";

type Endpoint = { id: string; url: string; description: string; events: string[]; status: "active" | "paused"; pausedReason: "manual" | "failing" | null };

/** 'Integrações (webhooks)' on /dados-da-escola (issue 29). */
export function WebhooksSection() {
  const queryClient = useQueryClient();
  const list = useQuery(trpc.school.webhooks.list.queryOptions());
  const [editing, setEditing] = useState<Endpoint | "new" | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.school.webhooks.pathKey() });
  const onError = (title: string) => (error: unknown) => {
    setErrors(fieldErrors(error));
    notifyFailure(error, { title });
  };
  const create = useMutation(
    trpc.school.webhooks.create.mutationOptions({
      onSuccess: async (row) => {
        setEditing(null);
        setSecret(row.secret);
        await refresh();
      },
      onError: onError(m.add),
    }),
  );
  const update = useMutation(
    trpc.school.webhooks.update.mutationOptions({
      onSuccess: async () => {
        setEditing(null);
        await refresh();
      },
      onError: onError(m.edit),
    }),
  );
  const endpoints = (list.data ?? []) as Endpoint[];
  const save = (draft: EndpointDraft) => (editing === "new" ? create.mutate(draft) : editing && update.mutate({ id: editing.id, ...draft }));

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="webhooks-title">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="webhooks-title">
            {m.section}
          </Title>
          <Button onClick={() => (setErrors({}), setEditing("new"))} disabled={endpoints.length >= WEBHOOK_MAX_ENDPOINTS}>
            {m.add}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {m.intro}
        </Text>
        {list.isSuccess && endpoints.length === 0 ? <Text size="sm">{m.noEndpoints}</Text> : null}
        {endpoints.map((e) => (
          <EndpointCard key={e.id} endpoint={e} onEdit={() => (setErrors({}), setEditing(e))} onSecret={setSecret} refresh={refresh} />
        ))}
      </Stack>
      {editing ? (
        <EndpointForm
          opened
          title={editing === "new" ? m.add : m.edit}
          initial={editing === "new" ? { url: "", description: "", events: [] } : { url: editing.url, description: editing.description, events: editing.events as WebhookEventType[] }}
          saving={create.isPending || update.isPending}
          errors={errors}
          onClose={() => setEditing(null)}
          onSave={save}
        />
      ) : null}
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={m.secretLabel} size="lg">
        <Stack>
          <Alert color="yellow">{m.secretOnce}</Alert>
          <Code block aria-label={m.secretLabel} data-testid="webhook-secret" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
            {secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ""}>{({ copied, copy }) => <Button onClick={copy}>{copied ? m.copied : m.copy}</Button>}</CopyButton>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

function EndpointCard({ endpoint: e, onEdit, onSecret, refresh }: { endpoint: Endpoint; onEdit(): void; onSecret(s: string): void; refresh(): Promise<void> }) {
  const [showLog, setShowLog] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const done = (message?: string) => async () => {
    if (message) notifyOk(message);
    await refresh();
  };
  const opts = (title: string, message?: string) => ({ onSuccess: done(message), onError: (error: unknown) => notifyFailure(error, { title }) });
  const pause = useMutation(trpc.school.webhooks.pause.mutationOptions(opts(m.pause)));
  const resume = useMutation(trpc.school.webhooks.resume.mutationOptions(opts(m.resume)));
  const remove = useMutation(trpc.school.webhooks.delete.mutationOptions(opts(m.remove)));
  const test = useMutation(
    trpc.school.webhooks.test.mutationOptions({
      ...opts(m.test, m.testSent),
      onSuccess: async () => {
        notifyOk(m.testSent);
        setShowLog(true);
        await refresh();
      },
    }),
  );
  const rotate = useMutation(
    trpc.school.webhooks.rotateSecret.mutationOptions({
      onSuccess: async (row) => {
        notifyOk(m.rotated);
        onSecret(row.secret);
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: m.rotate }),
    }),
  );
  const paused = e.status === "paused";
  return (
    <Card withBorder padding="md" data-testid="webhook-endpoint">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ wordBreak: "break-all" }}>
              {e.url}
            </Text>
            {e.description ? <Text size="sm">{e.description}</Text> : null}
          </Stack>
          <Badge color={paused ? "orange" : "green"} variant="light" style={{ flexShrink: 0 }}>
            {paused ? (e.pausedReason === "failing" ? m.pausedFailing : m.statusPaused) : m.statusActive}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {m.events}: {e.events.map((t) => webhookEventLabels[t] ?? t).join(", ")}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button size="xs" variant="light" onClick={() => test.mutate({ id: e.id })} loading={test.isPending}>
            {m.test}
          </Button>
          <Button size="xs" variant="default" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
            {m.log}
          </Button>
          <Button size="xs" variant="default" onClick={onEdit}>
            {m.edit}
          </Button>
          {paused ? (
            <Button size="xs" variant="default" onClick={() => resume.mutate({ id: e.id })} loading={resume.isPending}>
              {m.resume}
            </Button>
          ) : (
            <Button size="xs" variant="default" onClick={() => pause.mutate({ id: e.id })} loading={pause.isPending}>
              {m.pause}
            </Button>
          )}
          <Button size="xs" variant="default" onClick={() => rotate.mutate({ id: e.id })} loading={rotate.isPending}>
            {m.rotate}
          </Button>
          <Button size="xs" color="red" variant="light" onClick={() => setConfirmDelete(true)}>
            {m.remove}
          </Button>
        </Group>
        {showLog ? <DeliveryLog endpointId={e.id} /> : null}
      </Stack>
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title={m.remove}>
        <Stack>
          <Text>{m.removeConfirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              {m.cancel}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: e.id }, { onSettled: () => setConfirmDelete(false) })}>
              {m.remove}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
