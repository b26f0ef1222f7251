import { verificationMessages as m } from "@elo/shared";
import { Center, Loader, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";
import { useErrorToast } from "../../lib/useErrorToast";
import { Page } from "../common/Page";
import { StaffGate } from "../school/StaffGate";
import { ProofCard } from "./ProofCard";
import { useProofActions } from "./useProofActions";
import type { ProofRow } from "./types";

/** /confirmar-matriculas: the school's staff confirm or refuse the proofs that name their school. */
export function ConfirmEnrollmentsPage() {
  return (
    <StaffGate title={m.pageTitle}>
      <ConfirmEnrollments />
    </StaffGate>
  );
}

function ConfirmEnrollments() {
  const list = useQuery(trpc.school.verifications.list.queryOptions());
  useErrorToast(list.error, { title: m.openError });
  const actions = useProofActions("school");
  const rows = list.data ?? [];
  return (
    <Page title={m.pageTitle}>
      <Text c="dimmed">{m.pageIntro}</Text>
      {list.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <>
          <Section title={m.pendingTitle} empty={m.emptyPending} rows={rows.filter((r) => r.status === "enviado")} actions={actions} />
          <Section title={m.decidedTitle} empty={m.emptyDecided} rows={rows.filter((r) => r.status !== "enviado")} actions={actions} />
        </>
      )}
    </Page>
  );
}

/** A titled list of proof cards, or its empty text. */
export function Section({ title, empty, rows, actions, showSchool }: { title: string; empty: string; rows: ProofRow[]; actions: ReturnType<typeof useProofActions>; showSchool?: boolean }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={2} size="h4">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {empty}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {rows.map((r) => (
            <ProofCard key={r.id} row={r} actions={actions} showSchool={showSchool} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
