import { publicPagesMessages as m } from "@elo/shared";
import { Anchor, Card, Stack, Switch, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** 'Mostrar a escola nas páginas públicas' on /dados-da-escola (issue 26): saved as soon as it is flipped. */
export function PublicPageSwitch({ publicPage, publicHidden, publicPath }: { publicPage: boolean; publicHidden: boolean; publicPath: string | null }) {
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.school.data.setPublicPage.mutationOptions({
      onSuccess: async (data) => {
        notifyOk(data.publicPage ? m.switchOn : m.switchOff);
        await queryClient.invalidateQueries({ queryKey: trpc.school.data.get.queryKey() });
      },
      onError: (error) => notifyFailure(error, { title: m.switchLabel, description: m.switchError }),
    }),
  );
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Switch
          label={m.switchLabel}
          description={m.switchDescription}
          checked={publicPage}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ publicPage: e.currentTarget.checked })}
        />
        {publicHidden ? (
          <Text size="sm" c="orange.9">
            {m.hiddenByAdmin}
          </Text>
        ) : null}
        {publicPath ? (
          <Anchor href={publicPath} target="_blank" size="sm">
            {m.viewPublicPage}
          </Anchor>
        ) : null}
      </Stack>
    </Card>
  );
}
