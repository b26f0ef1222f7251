import { adminUiMessages, formatDateTime, operationsMessages as m } from "@elo/shared";
import { Alert, Badge, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { ChartsLoading } from "../charts/ChartsLoading";
import { Page } from "../common/Page";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

// The charts library loads with the chart, not with the page (docs/decisions/130).
const EmailsPerHourChart = lazy(() => import("./EmailsPerHourChart"));
const ActivityPerHourChart = lazy(() => import("./ActivityPerHourChart"));

/** Figures that move while the page is open: read again every 30 s. */
const REFRESH_MS = 30_000;

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value}
      </Text>
    </Card>
  );
}

const when = (value: Date | string | null) => (value ? formatDateTime(value) : m.never);
const count = (n: number) => n.toLocaleString("pt-BR");

/** /admin-operacao 'Operação': the outbox with 'Reenviar', scheduled jobs, the last backup, counts of now. */
export function AdminOperationsPage() {
  const queryClient = useQueryClient();
  const overview = useQuery({ ...trpc.admin.operations.overview.queryOptions(), refetchInterval: REFRESH_MS });
  const resend = useMutation(
    trpc.admin.operations.resendEmail.mutationOptions({
      onSuccess: async (answer) => {
        notifyOk(answer.message);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.operations.overview.queryKey() });
        // The sender works right after the answer: look again shortly to show the e-mail sent.
        setTimeout(() => void queryClient.invalidateQueries({ queryKey: trpc.admin.operations.overview.queryKey() }), 1500);
      },
      onError: (error) => notifyFailure(error, { title: m.loadError }),
    }),
  );
  const o = overview.data;

  return (
    <Page>
      <Group gap="md">
        <Title order={1} fz={{ base: 26, sm: 34 }}>
          {m.title}
        </Title>
        <Button component={Link} to="/admin-escolas" variant="default" leftSection={<IconArrowLeft size={16} />}>
          {adminUiMessages.backToSchools}
        </Button>
      </Group>
      {overview.isError && <Alert color="red">{m.loadError}</Alert>}
      {!o ? (
        overview.isError ? null : (
          <Center py="xl">
            <Loader />
          </Center>
        )
      ) : (
        <Stack gap="lg">
          <Stack gap="sm" component="section" aria-labelledby="ops-outbox">
            <Title order={2} id="ops-outbox">
              {m.outboxTitle}
            </Title>
            {!o.smtpEnabled && <Alert color="yellow">{m.smtpOff}</Alert>}
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
              <Stat label={m.pending} value={count(o.outbox.pending)} testId="ops-pending" />
              <Stat label={m.failing} value={count(o.outbox.failing)} testId="ops-failing" />
              <Stat label={m.sentLastDay} value={count(o.outbox.sentLastDay)} testId="ops-sent" />
              <Stat label={m.oldestPending} value={o.outbox.oldestPendingSeconds === null ? m.noneWaiting : m.age(o.outbox.oldestPendingSeconds)} testId="ops-oldest" />
            </SimpleGrid>
            <Card withBorder radius="md" padding="lg" data-testid="ops-failed">
              <Stack gap="sm">
                <Title order={3}>{m.failedTitle}</Title>
                {o.outbox.failed.length === 0 ? (
                  <Text c="dimmed" size="sm">
                    {m.noFailed}
                  </Text>
                ) : (
                  <Table.ScrollContainer minWidth={760}>
                    <Table>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>{m.colTo}</Table.Th>
                          <Table.Th>{m.colSubject}</Table.Th>
                          <Table.Th>{m.colError}</Table.Th>
                          <Table.Th>{m.colAttempts}</Table.Th>
                          <Table.Th>{m.colCreated}</Table.Th>
                          <Table.Th />
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {o.outbox.failed.map((f) => (
                          <Table.Tr key={f.id}>
                            <Table.Td>{f.to}</Table.Td>
                            <Table.Td>{f.subject ?? f.kind}</Table.Td>
                            <Table.Td>
                              <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                                {f.lastError}
                              </Text>
                            </Table.Td>
                            <Table.Td>{f.attempts}</Table.Td>
                            <Table.Td>{formatDateTime(f.createdAt)}</Table.Td>
                            <Table.Td>
                              <Button
                                size="xs"
                                variant="light"
                                aria-label={m.resendLabel(f.to)}
                                loading={resend.isPending && resend.variables?.id === f.id}
                                onClick={() => resend.mutate({ id: f.id })}
                              >
                                {m.resend}
                              </Button>
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )}
              </Stack>
            </Card>
            <Suspense fallback={<ChartsLoading />}>
              <EmailsPerHourChart hours={o.outbox.hours} />
            </Suspense>
            <Suspense fallback={<ChartsLoading />}>
              <ActivityPerHourChart hours={o.activity.hours} />
            </Suspense>
          </Stack>

          <Stack gap="sm" component="section" aria-labelledby="ops-jobs">
            <Title order={2} id="ops-jobs">
              {m.jobsTitle}
            </Title>
            <Table.ScrollContainer minWidth={760}>
              <Table data-testid="ops-jobs-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{m.colJob}</Table.Th>
                    <Table.Th>{m.colLastRun}</Table.Th>
                    <Table.Th>{m.colLastSuccess}</Table.Th>
                    <Table.Th>{m.colLastError}</Table.Th>
                    <Table.Th>{m.colRuns}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {o.jobs.map((j) => (
                    <Table.Tr key={j.job}>
                      <Table.Td>{j.label}</Table.Td>
                      <Table.Td>{when(j.lastRunAt)}</Table.Td>
                      <Table.Td>{when(j.lastSuccessAt)}</Table.Td>
                      <Table.Td>
                        {j.lastError ? (
                          <Text size="sm" c="red.9" style={{ overflowWrap: "anywhere" }}>
                            {when(j.lastErrorAt)}: {j.lastError}
                          </Text>
                        ) : (
                          "—"
                        )}
                      </Table.Td>
                      <Table.Td>
                        {count(j.runs)} ({count(j.failures)})
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="ops-backup" data-testid="ops-backup">
              <Stack gap="xs">
                <Title order={2} size="h3" id="ops-backup">
                  {m.backupTitle}
                </Title>
                {o.backup?.lastSuccessAt ? (
                  <Group gap="sm">
                    <Badge color="teal" variant="light">
                      {formatDateTime(o.backup.lastSuccessAt)}
                    </Badge>
                    <Text size="sm">{m.backupFiles(o.backup.files)}</Text>
                  </Group>
                ) : (
                  <Text size="sm" c="dimmed">
                    {m.backupNone}
                  </Text>
                )}
                {o.backup?.lastErrorAt && (!o.backup.lastSuccessAt || new Date(o.backup.lastErrorAt) > new Date(o.backup.lastSuccessAt)) && (
                  <Text size="sm" c="red.9">
                    {m.backupFailed(formatDateTime(o.backup.lastErrorAt))}: {o.backup.lastError}
                  </Text>
                )}
              </Stack>
            </Card>
            <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="ops-now">
              <Stack gap="xs">
                <Title order={2} size="h3" id="ops-now">
                  {m.todayTitle}
                </Title>
                <Text size="sm">
                  {m.lockedLogins}: <b data-testid="ops-locked">{count(o.now.lockedLogins)}</b>
                </Text>
                <Text size="sm">
                  {m.failedLoginsHour}: <b>{count(o.now.refusedLoginsLastHour)}</b>
                </Text>
                <Text size="sm">
                  {m.rateLimitHour}: <b>{count(o.now.rateLimitRefusalsLastHour)}</b>
                </Text>
              </Stack>
            </Card>
          </SimpleGrid>
        </Stack>
      )}
    </Page>
  );
}
