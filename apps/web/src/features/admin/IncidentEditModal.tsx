import { accessLogMessages as m, INCIDENT_STATUSES, verificationMessages as v, type IncidentStatus } from "@elo/shared";
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { queryClient, trpc } from "../../lib/trpc";

export interface EditableIncident {
  id: string;
  title: string;
  status: IncidentStatus;
  nature: string;
  accountsAffected: number;
  childrenAffected: number;
  measures: string;
  risks: string | null;
  delayReason: string | null;
  anpdCommunicatedAt: Date | string | null;
  holdersCommunicatedAt: Date | string | null;
}

/** A `datetime-local` value in the browser's time. */
const localInput = (d: Date | string | null) => {
  if (!d) return "";
  const t = new Date(d);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
};
const instant = (value: string) => (value ? new Date(value) : null);

/**
 * 'Atualizar' a recorded incident (decision 195): status, art. 48 § 1 fields and the communication
 * dates; only what changed is sent, and the server appends the edit to the incident's history.
 */
export function IncidentEditModal({ incident, onClose }: { incident: EditableIncident; onClose: () => void }) {
  const initial = {
    status: incident.status,
    nature: incident.nature,
    accountsAffected: incident.accountsAffected,
    childrenAffected: incident.childrenAffected,
    measures: incident.measures,
    risks: incident.risks ?? "",
    delayReason: incident.delayReason ?? "",
    anpdCommunicatedAt: localInput(incident.anpdCommunicatedAt),
    holdersCommunicatedAt: localInput(incident.holdersCommunicatedAt),
  };
  const [form, setForm] = useState(initial);
  const update = useMutation(
    trpc.admin.incidents.update.mutationOptions({
      onSuccess: ({ changed }) => {
        notifyOk(changed ? m.incidentUpdated : m.incidentUnchanged);
        onClose();
        void queryClient.invalidateQueries({ queryKey: trpc.admin.incidents.pathKey() });
      },
      onError: (e) => notifyFailure(e, { title: m.incidentEditTitle }),
    }),
  );
  const set = (key: keyof typeof initial) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setForm((f) => ({ ...f, [key]: value }));
  };
  const submit = () => {
    const changes: Record<string, unknown> = {};
    if (form.status !== initial.status) changes.status = form.status;
    for (const key of ["nature", "measures"] as const) if (form[key] !== initial[key]) changes[key] = form[key];
    for (const key of ["risks", "delayReason"] as const) if (form[key] !== initial[key]) changes[key] = form[key].trim() ? form[key] : null;
    for (const key of ["accountsAffected", "childrenAffected"] as const) if (form[key] !== initial[key]) changes[key] = form[key];
    for (const key of ["anpdCommunicatedAt", "holdersCommunicatedAt"] as const) if (form[key] !== initial[key]) changes[key] = instant(form[key]);
    update.mutate({ id: incident.id, changes });
  };
  return (
    <Modal opened onClose={onClose} title={`${m.incidentEditTitle}: ${incident.title}`} size="lg" centered>
      <Stack gap="sm">
        <Select
          label={m.incidentStatusLabel}
          data={INCIDENT_STATUSES.map((s) => ({ value: s, label: m.incidentStatusLabels[s]! }))}
          value={form.status}
          onChange={(s) => s && setForm((f) => ({ ...f, status: s as IncidentStatus }))}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea label={m.incidentNatureLabel} value={form.nature} onChange={set("nature")} maxLength={2000} autosize minRows={2} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput label={m.incidentAccountsLabel} value={form.accountsAffected} onChange={(n) => setForm((f) => ({ ...f, accountsAffected: Number(n) || 0 }))} min={0} allowDecimal={false} />
          <NumberInput label={m.incidentChildrenLabel} value={form.childrenAffected} onChange={(n) => setForm((f) => ({ ...f, childrenAffected: Number(n) || 0 }))} min={0} allowDecimal={false} />
        </SimpleGrid>
        <Textarea label={m.incidentRisksLabel} value={form.risks} onChange={set("risks")} maxLength={4000} autosize minRows={2} />
        <Textarea label={m.incidentDelayLabel} value={form.delayReason} onChange={set("delayReason")} maxLength={4000} autosize minRows={2} />
        <Textarea label={m.incidentMeasuresLabel} value={form.measures} onChange={set("measures")} maxLength={4000} autosize minRows={2} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput type="datetime-local" label={m.incidentAnpdLabel} value={form.anpdCommunicatedAt} onChange={set("anpdCommunicatedAt")} />
          <TextInput type="datetime-local" label={m.incidentHoldersLabel} value={form.holdersCommunicatedAt} onChange={set("holdersCommunicatedAt")} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {v.cancel}
          </Button>
          <Button onClick={submit} loading={update.isPending}>
            {m.incidentEdit}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
