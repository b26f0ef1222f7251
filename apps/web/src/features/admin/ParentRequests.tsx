import { adminQueueMessages, adminUiMessages } from "@elo/shared";
import { Badge, Button, Card, Center, Group, Modal, Pagination, Select, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { SchoolCard } from "./SchoolCard";
import type { AdminSchool } from "./types";

/** Choose the school to keep, then fold the parent's school into it. */
function MergeModal({ source, onClose }: { source: AdminSchool; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState(source.name);
  const [debounced] = useDebouncedValue(search, 300);
  const [targetId, setTargetId] = useState<string | null>(null);
  const candidates = useQuery(trpc.admin.schools.list.queryOptions({ search: debounced, pageSize: 50 }));
  const merge = useMutation(
    trpc.admin.schools.merge.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminQueueMessages.merged);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.schools.pathKey() });
        onClose();
      },
      onError: (error) => notifyFailure(error, { title: adminQueueMessages.mergeError }),
    }),
  );
  const options = (candidates.data?.items ?? [])
    .filter((s) => s.id !== source.id)
    .map((s) => ({ value: s.id, label: [s.name, s.city && `${s.city}/${s.uf ?? ""}`].filter(Boolean).join(" — ") }));
  return (
    <Modal opened onClose={onClose} title={`${adminQueueMessages.mergeTitle}: ${source.name}`}>
      <Stack>
        <Text size="sm">{adminQueueMessages.mergeHelp}</Text>
        <Select
          label={adminQueueMessages.mergeTarget}
          placeholder={adminUiMessages.mergeSearch}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={options}
          value={targetId}
          onChange={setTargetId}
          filter={({ options: o }) => o}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {adminUiMessages.cancel}
          </Button>
          <Button color="orange" disabled={!targetId} loading={merge.isPending} onClick={() => targetId && merge.mutate({ sourceId: source.id, targetId })}>
            {adminQueueMessages.merge}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const REQUESTS_PAGE_SIZE = 12;

/** Takes a corrected school out of the queue; it stays in the grid as an ordinary school. */
function MarkReviewedButton({ school }: { school: AdminSchool }) {
  const queryClient = useQueryClient();
  const review = useMutation(
    trpc.admin.schools.markReviewed.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminQueueMessages.reviewed);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.schools.pathKey() });
      },
      onError: (error) => notifyFailure(error, { title: adminQueueMessages.reviewError }),
    }),
  );
  return (
    <Button size="xs" variant="light" color="teal" loading={review.isPending} onClick={() => review.mutate({ id: school.id })}>
      {adminQueueMessages.markReviewed}
    </Button>
  );
}

/** Schools parents typed in themselves: correct them (edit), merge them into an existing school, or mark them reviewed. */
export function ParentRequests() {
  const [page, setPage] = useState(1);
  const requests = useQuery({
    ...trpc.admin.schools.list.queryOptions({ origin: "parent_request", page, pageSize: REQUESTS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const [merging, setMerging] = useState<AdminSchool | null>(null);
  const total = requests.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / REQUESTS_PAGE_SIZE));
  // Reviewing the last school of the last page would leave an empty page behind.
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="parent-requests">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3">
            {adminQueueMessages.requestsTitle}
          </Title>
          {total > 0 && (
            <Badge color="orange" variant="light" data-testid="parent-requests-total">
              {total}
            </Badge>
          )}
        </Group>
        {!requests.data?.items.length ? (
          <Text c="dimmed" size="sm">
            {requests.isPending ? "" : adminQueueMessages.requestsEmpty}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {requests.data.items.map((s) => (
              <SchoolCard key={s.id} school={s} onMerge={setMerging} extra={<MarkReviewedButton school={s} />} />
            ))}
          </SimpleGrid>
        )}
        {pages > 1 && (
          <Center>
            <Pagination total={pages} value={page} onChange={setPage} siblings={1} boundaries={1} />
          </Center>
        )}
      </Stack>
      {merging && <MergeModal source={merging} onClose={() => setMerging(null)} />}
    </Card>
  );
}
