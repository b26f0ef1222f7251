import { adminMessages, adminQueueMessages, adminUiMessages, publicPagesMessages } from "@elo/shared";
import { Avatar, Badge, Button, Card, FileButton, Group, Modal, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { SchoolEditModal } from "./SchoolEditModal";
import type { AdminSchool } from "./types";
import { useLogoUpload } from "./useLogoUpload";

/** One school of the admin grid: logo, data, and the edit, logo and delete actions. */
export function SchoolCard({ school, onMerge, extra }: { school: AdminSchool; onMerge?: (school: AdminSchool) => void; extra?: ReactNode }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.schools.pathKey() });
  const upload = useLogoUpload(school.id, refresh);
  const removeLogo = useMutation(
    trpc.admin.schools.removeLogo.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminMessages.logoRemoved);
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: adminMessages.logoRemoveError }),
    }),
  );
  const remove = useMutation(
    trpc.admin.schools.delete.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminMessages.deleted);
        setConfirmDelete(false);
        await refresh();
      },
      onError: (error) => {
        setConfirmDelete(false);
        notifyFailure(error, { title: adminMessages.deleteError });
      },
    }),
  );
  // Issue 26: an admin hides a school from the public pages whatever its own switch says.
  const publicHidden = useMutation(
    trpc.admin.schools.setPublicHidden.mutationOptions({
      onSuccess: async (data) => {
        notifyOk(data.publicHidden ? publicPagesMessages.adminHidden : publicPagesMessages.adminShown);
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: adminMessages.updateError }),
    }),
  );
  const place = [school.neighborhood, school.city && school.uf ? `${school.city}/${school.uf}` : school.city ?? school.uf].filter(Boolean).join(" · ");

  return (
    <Card withBorder radius="md" padding="md" data-testid="admin-school-card">
      <Stack gap="sm" h="100%">
        <Group wrap="nowrap" align="flex-start">
          <Avatar src={school.logoUrl} alt={school.name} size={56} radius="md" color="blue">
            {school.name.slice(0, 2).toUpperCase()}
          </Avatar>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} lineClamp={2}>
              {school.name}
            </Text>
            {place && (
              <Text size="sm" c="dimmed">
                {place}
              </Text>
            )}
            <Group gap={4}>
              {school.categoryName && <Badge variant="light">{school.categoryName}</Badge>}
              {school.modalityName && (
                <Badge variant="outline" color="gray">
                  {school.modalityName}
                </Badge>
              )}
              {school.origin === "parent_request" && <Badge color="orange">{adminUiMessages.originParent}</Badge>}
              {school.publicHidden && <Badge color="gray">{publicPagesMessages.adminHiddenBadge}</Badge>}
            </Group>
          </Stack>
        </Group>
        <Group gap="xs" mt="auto">
          <FileButton onChange={upload.start} accept="image/png,image/jpeg,image/webp">
            {(props) => (
              <Button size="xs" variant="light" loading={upload.pending} {...props}>
                {adminUiMessages.uploadLogo}
              </Button>
            )}
          </FileButton>
          <Button size="xs" variant="light" onClick={() => setEditing(true)}>
            {adminUiMessages.edit}
          </Button>
          {school.logoUrl && (
            <Button size="xs" variant="subtle" color="gray" loading={removeLogo.isPending} onClick={() => removeLogo.mutate({ id: school.id })}>
              {adminUiMessages.removeLogo}
            </Button>
          )}
          {onMerge && (
            <Button size="xs" variant="light" color="orange" onClick={() => onMerge(school)}>
              {adminQueueMessages.merge}
            </Button>
          )}
          {extra}
          <Button size="xs" variant="subtle" color="gray" loading={publicHidden.isPending} onClick={() => publicHidden.mutate({ id: school.id, hidden: !school.publicHidden })}>
            {school.publicHidden ? publicPagesMessages.adminShow : publicPagesMessages.adminHide}
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={() => setConfirmDelete(true)}>
            {adminUiMessages.delete}
          </Button>
        </Group>
      </Stack>
      {editing && <SchoolEditModal school={school} onClose={() => setEditing(false)} />}
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title={adminUiMessages.deleteTitle}>
        <Stack>
          <Text>{adminUiMessages.deleteConfirm(school.name)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              {adminUiMessages.cancel}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: school.id })}>
              {adminUiMessages.delete}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
