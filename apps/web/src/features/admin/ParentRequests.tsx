import { adminQueueMessages, adminUiMessages } from "@elo/shared";
import { Button, Card, Group, Modal, Select, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
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

/** Schools parents typed in themselves: correct them (edit) or merge them into an existing school. */
export function ParentRequests() {
  const requests = useQuery(trpc.admin.schools.list.queryOptions({ origin: "parent_request", pageSize: 30 }));
  const [merging, setMerging] = useState<AdminSchool | null>(null);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="parent-requests">
      <Stack>
        <Title order={2} size="h3">
          {adminQueueMessages.requestsTitle}
        </Title>
        {!requests.data?.items.length ? (
          <Text c="dimmed" size="sm">
            {requests.isPending ? "" : adminQueueMessages.requestsEmpty}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {requests.data.items.map((s) => (
              <SchoolCard key={s.id} school={s} onMerge={setMerging} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      {merging && <MergeModal source={merging} onClose={() => setMerging(null)} />}
    </Card>
  );
}
