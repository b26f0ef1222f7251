import { Badge, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { formatDate, privacyPageMessages as m } from "@elo/shared";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

/** The latest consent record of the signed-in user. */
export function ConsentCard() {
  const { data, isLoading } = useQuery(trpc.privacy.latestConsent.queryOptions());
  const rows = data
    ? [
        { label: m.consentTerms, value: data.termsAccepted },
        { label: m.consentPrivacy, value: data.privacyAccepted },
        { label: m.consentProcessing, value: data.dataProcessingConsent },
        { label: m.consentMarketing, value: data.marketingConsent },
      ]
    : [];
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="consents-title">
      <Stack gap="sm">
        <Title order={2} fz="h3" id="consents-title">
          {m.consentsTitle}
        </Title>
        {isLoading ? (
          <Skeleton h={120} />
        ) : data ? (
          <>
            <Stack gap={6} component="dl" m={0}>
              {rows.map((r) => (
                <Group key={r.label} justify="space-between" wrap="nowrap">
                  <Text component="dt">{r.label}</Text>
                  <Badge component="dd" m={0} color={r.value ? "teal" : "gray"} variant="light">
                    {r.value ? m.accepted : m.notAccepted}
                  </Badge>
                </Group>
              ))}
            </Stack>
            <Text size="sm" c="dimmed">
              {m.consentDate(formatDate(data.acceptedAt), data.consentVersion)}
            </Text>
          </>
        ) : (
          <Text c="dimmed">{m.noConsent}</Text>
        )}
      </Stack>
    </Card>
  );
}
