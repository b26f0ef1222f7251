import { adminQueueMessages, adminUiMessages, formatDate } from "@elo/shared";
import { Badge, Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** Staff who asked to manage a school, waiting for an admin's decision. */
export function MembershipQueue() {
  const queryClient = useQueryClient();
  const pending = useQuery(trpc.admin.memberships.pending.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.memberships.pending.queryKey() });
  const approve = useMutation(
    trpc.admin.memberships.approve.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminQueueMessages.approved);
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: adminQueueMessages.decisionError }),
    }),
  );
  const reject = useMutation(
    trpc.admin.memberships.reject.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminQueueMessages.rejected);
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: adminQueueMessages.decisionError }),
    }),
  );
  const busy = approve.isPending || reject.isPending;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="membership-queue">
      <Stack>
        <Title order={2} size="h3">
          {adminQueueMessages.membershipsTitle}
        </Title>
        {!pending.data?.length ? (
          <Text c="dimmed" size="sm">
            {pending.isPending ? "" : adminQueueMessages.membershipsEmpty}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{adminUiMessages.queueUser}</Table.Th>
                  <Table.Th>{adminUiMessages.queueSchool}</Table.Th>
                  <Table.Th>{adminUiMessages.queuePosition}</Table.Th>
                  <Table.Th>{adminUiMessages.queueDate}</Table.Th>
                  <Table.Th>{adminUiMessages.queueActions}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pending.data.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {m.fullName ?? m.email}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {m.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{m.schoolName}</Text>
                      {m.schoolCity && (
                        <Text size="xs" c="dimmed">
                          {m.schoolCity}/{m.schoolUf}
                        </Text>
                      )}
                      {m.refusedBefore && (
                        <Badge color="orange" variant="light" mt={4} style={{ textTransform: "none" }}>
                          {adminQueueMessages.repeatRequest(formatDate(m.refusedBefore))}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{m.position ?? "—"}</Table.Td>
                    <Table.Td>{formatDate(m.requestedAt)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" color="teal" disabled={busy} onClick={() => approve.mutate({ id: m.id })}>
                          {adminQueueMessages.approve}
                        </Button>
                        <Button size="xs" variant="light" color="red" disabled={busy} onClick={() => reject.mutate({ id: m.id })}>
                          {adminQueueMessages.reject}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
