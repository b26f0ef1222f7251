import { accessLogMessages as m } from "@elo/shared";
import { Card, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconBuildingSkyscraper, IconEye } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

/** 'Quem viu os dados do meu filho' (issue 27): every opening, decision and desk lookup by someone else, newest first. */
export function WhoSawCard() {
  const log = useQuery(trpc.privacy.accessLog.queryOptions());
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="who-saw-title" data-testid="who-saw">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconEye size={22} aria-hidden />
          <Title order={2} fz="h3" id="who-saw-title">
            {m.whoSawTitle}
          </Title>
        </Group>
        <Text c="dimmed">{m.whoSawIntro}</Text>
        {log.isPending ? (
          <Loader size="sm" aria-label={m.whoSawTitle} />
        ) : !log.data?.length ? (
          <Text>{m.whoSawEmpty}</Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {log.data.map((r, i) => (
              <Paper key={`${r.at}-${i}`} withBorder radius="md" p="sm" component="li" data-testid="who-saw-row">
                <Stack gap={2}>
                  <Group justify="space-between" gap="xs" wrap="wrap">
                    <Text fw={600}>{r.organization}</Text>
                    <Text size="sm" c="dimmed">
                      {r.when}
                    </Text>
                  </Group>
                  <Text size="sm">
                    {[r.firstName, r.role].filter(Boolean).join(" · ")}
                    {r.viaApiToken ? ` · ${m.viaApiToken}` : ""}
                  </Text>
                  <Text size="sm">
                    {r.action}
                    {r.about ? ` — ${r.about}` : ""}
                  </Text>
                  {r.purpose && (
                    <Text size="sm" c="dimmed">
                      {m.columnPurpose}: {r.purpose}
                    </Text>
                  )}
                </Stack>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** 'Com quem seus dados foram compartilhados' (issue 27): schools and institutions from the data, and the operators. */
export function SharedWithCard() {
  const shared = useQuery(trpc.privacy.sharedWith.queryOptions());
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="shared-title" data-testid="shared-with">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconBuildingSkyscraper size={22} aria-hidden />
          <Title order={2} fz="h3" id="shared-title">
            {m.sharedTitle}
          </Title>
        </Group>
        <Text c="dimmed">{m.sharedIntro}</Text>
        {shared.isPending ? (
          <Loader size="sm" aria-label={m.sharedTitle} />
        ) : (
          <>
            {!shared.data?.schools.length ? (
              <Text>{m.sharedEmpty}</Text>
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xs">
                {shared.data.schools.map((s, i) => (
                  <Paper key={`${s.kind}-${i}`} withBorder radius="md" p="sm" data-testid="shared-row">
                    <Stack gap={2}>
                      <Text fw={600}>{s.organization}</Text>
                      <Text size="sm" fw={600} c={s.kind === "proof" ? "teal.8" : "indigo.8"}>
                        {s.reason}
                      </Text>
                      {s.about && <Text size="sm">{s.about}</Text>}
                      <Text size="sm" c="dimmed">
                        {m.sharedSince} {s.since}
                        {s.until ? ` ${m.sharedUntil} ${s.until}` : ""}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {m.sharedWhat}: {s.what}
                      </Text>
                    </Stack>
                  </Paper>
                ))}
              </SimpleGrid>
            )}
            <Title order={3} fz="h4" mt="xs">
              {m.sharedOperators}
            </Title>
            <SimpleGrid cols={{ base: 1, md: 3 }} spacing="xs">
              {shared.data?.operators.map((o) => (
                <Paper key={o.kind} withBorder radius="md" p="sm">
                  <Text fw={600}>{o.name}</Text>
                  <Text size="sm">{o.provider}</Text>
                  <Text size="sm" c="dimmed">
                    {m.sharedWhat}: {o.what}
                  </Text>
                </Paper>
              ))}
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Card>
  );
}
