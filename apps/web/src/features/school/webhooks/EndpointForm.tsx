import { WEBHOOK_EVENT_TYPES, webhookEventLabels, webhookMessages as m, type WebhookEventType } from "@elo/shared";
import { Button, Checkbox, Group, Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useState } from "react";

export interface EndpointDraft {
  url: string;
  description: string;
  events: WebhookEventType[];
}

/** Add or edit an endpoint: its URL, a description and the events it wants. */
export function EndpointForm(props: { opened: boolean; title: string; initial: EndpointDraft; saving: boolean; errors: Record<string, string>; onClose(): void; onSave(draft: EndpointDraft): void }) {
  const [draft, setDraft] = useState<EndpointDraft>(props.initial);
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...props.errors, ...local };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!draft.url.trim()) found.url = m.urlRequired;
    else if (!URL.canParse(draft.url.trim())) found.url = m.urlInvalid;
    if (draft.events.length === 0) found.events = m.eventsRequired;
    setLocal(found);
    if (Object.keys(found).length === 0) props.onSave({ ...draft, url: draft.url.trim() });
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={m.url}
            required
            placeholder="https://sistema.suaescola.com.br/webhooks/elo"
            value={draft.url}
            onChange={(e) => (setDraft({ ...draft, url: e.currentTarget.value }), setLocal(({ url: _u, ...rest }) => rest))}
            error={errors.url}
            maxLength={2000}
            data-autofocus
          />
          <TextInput label={m.description} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })} error={errors.description} maxLength={200} />
          <Checkbox.Group label={m.events} required value={draft.events} onChange={(v) => (setDraft({ ...draft, events: v as WebhookEventType[] }), setLocal(({ events: _e, ...rest }) => rest))} error={errors.events}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
              {WEBHOOK_EVENT_TYPES.map((t) => (
                <Checkbox key={t} value={t} label={webhookEventLabels[t]} description={t} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {m.cancel}
            </Button>
            <Button type="submit" loading={props.saving}>
              {m.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
