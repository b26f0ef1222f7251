import { webhookEventLabels, webhookMessages as m } from "@elo/shared";
import { Button, Code, Table, Text, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifyFailure, notifyOk } from "../../../lib/notify";
import { trpc } from "../../../lib/trpc";

const when = (iso: string) => new Date(iso).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "medium" });

/** The endpoint's last deliveries: event, when, answer, latency and the answer's first bytes, with 'Reenviar'. */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const log = useQuery({ ...trpc.school.webhooks.deliveries.queryOptions({ id: endpointId }), refetchInterval: 3000 });
  const resend = useMutation(
    trpc.school.webhooks.resend.mutationOptions({
      onSuccess: async () => {
        notifyOk(m.resent);
        await queryClient.invalidateQueries({ queryKey: trpc.school.webhooks.deliveries.queryKey({ id: endpointId }) });
      },
      onError: (error) => notifyFailure(error, { title: m.resend }),
    }),
  );
  const rows = log.data ?? [];
  if (log.isSuccess && rows.length === 0) return <Text size="sm" c="dimmed">{m.noDeliveries}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label={m.log}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{m.colEvent}</Table.Th>
            <Table.Th>{m.colWhen}</Table.Th>
            <Table.Th>{m.colStatus}</Table.Th>
            <Table.Th>{m.colLatency}</Table.Th>
            <Table.Th>{m.colAnswer}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{m.resend}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((d) => {
            const a = d.lastAttempt;
            return (
              <Table.Tr key={d.id} data-testid="webhook-delivery">
                <Table.Td>
                  {webhookEventLabels[d.type] ?? d.type}
                  <Text size="xs" c="dimmed">
                    {d.type}
                  </Text>
                </Table.Td>
                <Table.Td>{when(a?.at ?? d.createdAt)}</Table.Td>
                <Table.Td>{a ? (a.statusCode ?? a.error ?? m.noAnswer) : "…"}</Table.Td>
                <Table.Td>{a?.latencyMs ?? "–"}</Table.Td>
                <Table.Td maw={260}>
                  <Code style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>{a?.response || "–"}</Code>
                </Table.Td>
                <Table.Td>
                  <Button size="xs" variant="light" aria-label={`${m.resend} ${d.type}`} loading={resend.isPending && resend.variables?.eventId === d.eventId} onClick={() => resend.mutate({ id: endpointId, eventId: d.eventId })}>
                    {m.resend}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
