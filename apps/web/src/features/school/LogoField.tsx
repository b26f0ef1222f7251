import { schoolMessages, schoolUi } from "@elo/shared";
import { Avatar, Button, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** The school logo: shows it and removes it. */
export function LogoField({ logoUrl, schoolName }: { logoUrl: string | null; schoolName: string }) {
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.school.data.deleteLogo.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.logoDeleted);
        await queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
      },
      onError: (error) => notifyFailure(error, { title: schoolMessages.logoDeleteError }),
    }),
  );
  return (
    <Group align="center" gap="lg">
      <Avatar src={logoUrl} size={96} radius="md" alt={schoolUi.logo}>
        {schoolName.charAt(0) || "?"}
      </Avatar>
      <Stack gap="xs">
        <Text fw={600}>{schoolUi.logo}</Text>
        {!logoUrl && (
          <Text size="sm" c="dimmed">
            {schoolUi.noLogo}
          </Text>
        )}
        <Group gap="xs">
          {logoUrl && (
            <Button size="xs" color="red" variant="light" loading={remove.isPending} onClick={() => remove.mutate()}>
              {schoolUi.deleteLogo}
            </Button>
          )}
        </Group>
      </Stack>
    </Group>
  );
}
