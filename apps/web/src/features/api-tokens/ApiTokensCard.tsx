import { API_TOKEN_EXPIRY_DAYS, emailConfirmationMessages, apiTokenMessages as m, formatDate } from "@elo/shared";
import { Badge, Button, Card, Code, Container, CopyButton, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors, notifyFailure, notifyOk } from "../../lib/notify";
import { queryClient, trpc } from "../../lib/trpc";

const STATUS = { active: { label: m.statusActive, color: "teal" }, expired: { label: m.statusExpired, color: "gray" }, revoked: { label: m.statusRevoked, color: "red" } } as const;
const EXPIRY_OPTIONS = [{ value: "never", label: m.expiryNever }, ...API_TOKEN_EXPIRY_DAYS.map((d) => ({ value: String(d), label: m.expiryDays(d) }))];

/** Personal API tokens on /meus-dados: create (secret shown once), list with dates, revoke. */
export function ApiTokensCard() {
  const tokens = useQuery(trpc.apiTokens.list.queryOptions());
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const unconfirmed = me ? !me.emailConfirmed : false;
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState("never");
  const [nameError, setNameError] = useState<string | undefined>();
  const [secret, setSecret] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<{ id: string; name: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiTokens.list.queryKey() });

  const create = useMutation(
    trpc.apiTokens.create.mutationOptions({
      onSuccess: (created) => {
        setSecret(created.token);
        setName("");
        setExpiry("never");
        void refresh();
      },
      onError: (error) => {
        setNameError(fieldErrors(error).name);
        notifyFailure(error, { title: m.createErrorTitle });
      },
    }),
  );
  const revoke = useMutation(
    trpc.apiTokens.revoke.mutationOptions({
      onSuccess: () => {
        notifyOk(m.revokedTitle);
        setToRevoke(null);
        void refresh();
      },
      onError: (error) => notifyFailure(error, { title: m.revokeErrorTitle }),
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setNameError(m.nameRequired);
    setNameError(undefined);
    create.mutate({ name, expiresInDays: expiry === "never" ? null : (Number(expiry) as 30 | 90 | 365) });
  }

  return (
    // The width of the /meus-dados cards above it.
    <Container size="md" pb="xl">
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <div>
            <Title order={2} size="h3">
              {m.cardTitle}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {m.cardDescription}
            </Text>
          </div>
          <form onSubmit={submit} aria-label={m.cardTitle}>
            <Group align="flex-end" wrap="wrap">
              <TextInput label={m.nameLabel} placeholder={m.namePlaceholder} value={name} maxLength={100} error={nameError} onChange={(e) => setName(e.currentTarget.value)} style={{ flex: "1 1 220px" }} />
              <Select label={m.expiryLabel} data={EXPIRY_OPTIONS} value={expiry} onChange={(v) => setExpiry(v ?? "never")} allowDeselect={false} style={{ flex: "0 1 160px" }} />
              <Button type="submit" loading={create.isPending} disabled={unconfirmed}>
                {m.create}
              </Button>
            </Group>
          </form>
          {unconfirmed && (
            <Text size="sm" c="orange.8">
              {emailConfirmationMessages.tokensNeedConfirmation}
            </Text>
          )}
          {tokens.isError ? (
            <Text c="red" size="sm">
              {m.listErrorTitle}
            </Text>
          ) : tokens.data && tokens.data.length === 0 ? (
            <Text c="dimmed" size="sm">
              {m.empty}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{m.columnName}</Table.Th>
                    <Table.Th>{m.columnCreated}</Table.Th>
                    <Table.Th>{m.columnLastUsed}</Table.Th>
                    <Table.Th>{m.columnExpires}</Table.Th>
                    <Table.Th>{m.columnStatus}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {tokens.data?.map((t) => (
                    <Table.Tr key={t.id}>
                      <Table.Td>{t.name}</Table.Td>
                      <Table.Td>{formatDate(t.createdAt)}</Table.Td>
                      <Table.Td>{t.lastUsedAt ? formatDate(t.lastUsedAt) : m.neverUsed}</Table.Td>
                      <Table.Td>{t.expiresAt ? formatDate(t.expiresAt) : m.noExpiry}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS[t.status].color} variant="light">
                          {STATUS[t.status].label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {t.status === "active" && (
                          <Button size="xs" color="red" variant="subtle" onClick={() => setToRevoke({ id: t.id, name: t.name })}>
                            {m.revoke}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Text size="xs" c="dimmed">
            {m.docsHint}
          </Text>
        </Stack>
      </Card>

      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={m.createdTitle} centered closeOnClickOutside={false}>
        <Stack>
          <Text size="sm">{m.createdDescription}</Text>
          <Code block data-testid="api-token-secret" style={{ wordBreak: "break-all" }}>
            {secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ""}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? "teal" : undefined} onClick={copy}>
                  {copied ? m.copied : m.copy}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setSecret(null)}>{m.done}</Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={toRevoke !== null} onClose={() => setToRevoke(null)} title={m.revokeConfirmTitle} centered>
        <Stack>
          <Text size="sm">{toRevoke ? m.revokeConfirmText(toRevoke.name) : ""}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setToRevoke(null)}>
              {m.cancel}
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => toRevoke && revoke.mutate({ id: toRevoke.id })}>
              {m.revoke}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Container>
  );
}
