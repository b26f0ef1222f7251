import { ACCESS_PURPOSE_LABELS, accessLogMessages, ADMIN_PARENTS_PAGE_SIZE, adminMessages, adminUiMessages, formatDate } from "@elo/shared";
import { Alert, Anchor, Badge, Button, Card, Center, Group, Loader, Pagination, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconArrowLeft } from "@tabler/icons-react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { Page } from "../common/Page";
import { AdminProofQueue } from "../verification/AdminProofQueue";
import { IncidentsCard } from "./IncidentsCard";
import { PurposeModal, useAdminProofOpener, type StatedPurpose } from "../verification/PurposeDialog";
import { trpc } from "../../lib/trpc";
import { useErrorToast } from "../../lib/useErrorToast";

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value === undefined ? "—" : value.toLocaleString("pt-BR")}
      </Text>
    </Card>
  );
}

const YesNo = ({ value }: { value: boolean }) => (
  <Badge color={value ? "teal" : "gray"} variant="light">
    {value ? adminUiMessages.yes : adminUiMessages.no}
  </Badge>
);

/** /admin-pais 'Gestão de Pais/Responsáveis': summary and the parents table, newest first. */
export function AdminParentsPage() {
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const summary = useQuery(trpc.admin.parents.summary.queryOptions());
  const opener = useAdminProofOpener();
  // The table shows names, e-mails and children: it loads only once a purpose is stated, and each
  // page loaded is logged for the parents on it (decision 192). No refetch on focus: a new listing
  // is a new entry in each parent's 'Quem viu'.
  const [why, setWhy] = useState<StatedPurpose | null>(null);
  const [asking, setAsking] = useState(false);
  const parents = useQuery({
    ...trpc.admin.parents.list.queryOptions({ search: debounced, page, pageSize: ADMIN_PARENTS_PAGE_SIZE, purpose: why?.purpose ?? "revisao_administrador", ticket: why?.ticket ?? null }),
    enabled: why !== null,
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useErrorToast(parents.error ?? summary.error, { title: adminMessages.parentsLoadError });
  const pages = Math.max(1, Math.ceil((parents.data?.total ?? 0) / ADMIN_PARENTS_PAGE_SIZE));

  return (
    // As /admin-escolas: the header's width, the button clear of the account menu.
    <Page>
      {opener.dialog}
      <PurposeModal
        opened={asking}
        title={accessLogMessages.listPurposeTitle}
        text={accessLogMessages.listPurposeText}
        confirmLabel={accessLogMessages.listPurposeOpen}
        onClose={() => setAsking(false)}
        onConfirm={(w) => {
          setWhy(w);
          setAsking(false);
        }}
      />
      <Group gap="md">
        <Title order={1} fz={{ base: 26, sm: 34 }} style={{ overflowWrap: "anywhere" }}>
          {adminMessages.parentsTitle}
        </Title>
        <Button component={Link} to="/admin-escolas" variant="default" leftSection={<IconArrowLeft size={16} />}>
          {adminUiMessages.backToSchools}
        </Button>
      </Group>
      {(summary.isError || parents.isError) && <Alert color="red">{adminMessages.parentsLoadError}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat label={adminUiMessages.parentsTotal} value={summary.data?.total} />
        <Stat label={adminUiMessages.parentsCompleted} value={summary.data?.completed} />
        <Stat label={adminUiMessages.parentsProofs} value={summary.data?.proofs} />
      </SimpleGrid>
      <AdminProofQueue />
      <IncidentsCard />
      <TextInput
        label={adminUiMessages.parentsSearch}
        type="search"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      {why === null ? (
        <Card withBorder radius="md" padding="md" data-testid="parents-purpose">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{accessLogMessages.listPurposeAsk}</Text>
            <Button onClick={() => setAsking(true)}>{accessLogMessages.listPurposeButton}</Button>
          </Stack>
        </Card>
      ) : (
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {accessLogMessages.listPurposeCurrent(`${ACCESS_PURPOSE_LABELS[why.purpose]}${why.ticket ? ` ${why.ticket}` : ""}`)}
          </Text>
          <Anchor component="button" type="button" size="sm" onClick={() => setAsking(true)}>
            {accessLogMessages.listPurposeChange}
          </Anchor>
        </Group>
      )}
      {why === null ? null : !parents.data ? (
        parents.isError ? null : (
          <Center py="xl">
            <Loader />
          </Center>
        )
      ) : parents.data.items.length === 0 ? (
        <Text c="dimmed">{adminUiMessages.parentsEmpty}</Text>
      ) : (
        <Stack>
          <Table.ScrollContainer minWidth={860}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{adminUiMessages.parentsFullName}</Table.Th>
                  <Table.Th>{adminUiMessages.parentsStudent}</Table.Th>
                  <Table.Th>{adminUiMessages.parentsSchool}</Table.Th>
                  <Table.Th>{adminUiMessages.parentsProfileComplete}</Table.Th>
                  <Table.Th>{adminUiMessages.parentsProofSubmitted}</Table.Th>
                  <Table.Th>{adminUiMessages.parentsCreatedAt}</Table.Th>
                  <Table.Th>{adminUiMessages.parentsProof}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {parents.data.items.map((p) => (
                  <Table.Tr key={p.userId}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {p.fullName ?? "—"}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {p.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>{p.studentName ?? "—"}</Table.Td>
                    <Table.Td>{p.schoolName ?? "—"}</Table.Td>
                    <Table.Td>
                      <YesNo value={p.profileCompleted} />
                    </Table.Td>
                    <Table.Td>
                      <YesNo value={p.enrollmentProofSubmitted} />
                    </Table.Td>
                    <Table.Td>{formatDate(p.createdAt)}</Table.Td>
                    <Table.Td>
                      {p.proofId ? (
                        // Opened through the purpose dialog (issue 27): the list holds no file address.
                        <Anchor component="button" type="button" size="sm" onClick={() => opener.request(p.proofId!)}>
                          {adminUiMessages.parentsOpenProof}
                        </Anchor>
                      ) : (
                        "—"
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Center>
              <Pagination total={pages} value={page} onChange={setPage} siblings={1} boundaries={1} />
            </Center>
          )}
        </Stack>
      )}
    </Page>
  );
}
