import { Badge, Button, Card, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { CANCEL_REASON_LABELS, DISCOUNT_VALIDITY_LABELS, formatDate, formatLongDate, marketplaceMessages as m, VOUCHER_STATUS_LABELS, voucherQrMessages as qr, waitlistMessages as w } from "@elo/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { ConfirmDialog } from "../common/ConfirmDialog";
import { Page } from "../common/Page";
import { VOUCHER_STATUS_COLORS } from "../common/voucherStatus";
import { VoucherQr } from "../voucher-qr/VoucherQr";
import { percentOff } from "./format";
import type { ClaimHistoryEntry, WaitlistEntry } from "./types";
import { WaitlistBox } from "./WaitlistBox";

/** /painel-pais 'Meu Painel de Benefícios': one entry per benefit (its latest claim). */
export function ParentPanelPage() {
  // Spec 1 §2: load failures stop loading silently; the panel is then simply empty.
  const history = useQuery({ ...trpc.claim.history.queryOptions(), retry: 1 });
  const waitlist = useQuery({ ...trpc.waitlist.mine.queryOptions(), retry: 1 });
  return (
    <Page title={m.panelTitle}>
      {waitlist.data && waitlist.data.length > 0 && <WaitlistSection places={waitlist.data} />}
      <Text c="dimmed">{m.panelIntro}</Text>
      {history.isPending ? (
        <Center py="xl">
          <Loader aria-label={m.panelLoading} />
        </Center>
      ) : !history.data || history.data.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <Stack align="center" gap="sm">
            <Text>{m.panelEmpty}</Text>
            <Button component={Link} to="/home" variant="light">
              {m.goToMarketplace}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {history.data.map((entry) => (
            <PanelEntry key={entry.transactionId} entry={entry} />
          ))}
        </SimpleGrid>
      )}
    </Page>
  );
}

function PanelEntry({ entry }: { entry: ClaimHistoryEntry }) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid="panel-entry">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0} miw={0}>
            <Title order={2} fz="lg">
              {entry.className}
            </Title>
            <Text size="sm" c="dimmed">
              {entry.schoolName}
            </Text>
          </Stack>
          <Badge color="red" size="lg" style={{ flexShrink: 0 }}>
            {percentOff(entry.discountPercentage)}
          </Badge>
        </Group>
        <Group gap="xs">
          <Text size="sm">{m.voucherLabel}:</Text>
          <Text fw={800} ff="monospace" style={{ letterSpacing: 2 }}>
            {entry.voucherCode}
          </Text>
        </Group>
        {entry.status === "reservado" && (
          <Group gap="sm" wrap="nowrap" align="center">
            <VoucherQr address={entry.deskUrl} code={entry.voucherCode} size={120} />
            <Text size="xs" c="dimmed">
              {qr.hint}
            </Text>
          </Group>
        )}
        <Text size="sm">{m.claimedOn(formatLongDate(entry.claimedAt))}</Text>
        <Group gap="xs" wrap="wrap">
          <Badge variant={entry.expired ? "light" : "filled"} color={entry.expired ? "gray" : "blue"} data-testid="validity-badge" data-expired={entry.expired}>
            {DISCOUNT_VALIDITY_LABELS[entry.discountValidity]}
          </Badge>
          <Text size="xs" c="dimmed">
            {m.validUntil(formatDate(entry.validUntil))}
          </Text>
        </Group>
        {entry.presentBy && entry.status === "reservado" && (
          <Text size="sm" c="orange.9">
            {m.presentBy(formatDate(entry.presentBy))}
          </Text>
        )}
        <Group gap="xs">
          <Text size="sm">{m.voucherStatusLabel}:</Text>
          <Badge variant="outline" color={VOUCHER_STATUS_COLORS[entry.status]} data-testid="voucher-status">
            {VOUCHER_STATUS_LABELS[entry.status]}
          </Badge>
        </Group>
        {entry.status === "cancelado" && entry.cancelReason && (
          <Text size="sm" c="red.8" data-testid="cancel-reason">
            {entry.cancelledByParent ? m.gaveUpByYou : m.cancelReason(CANCEL_REASON_LABELS[entry.cancelReason])}
          </Text>
        )}
        {entry.status === "reservado" && <GiveUp transactionId={entry.transactionId} />}
      </Stack>
    </Card>
  );
}

/** 'Desistir do voucher', behind a confirmation: the slot goes back to other families (decision 122). */
function GiveUp({ transactionId }: { transactionId: string }) {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const giveUp = useMutation(
    trpc.claim.giveUp.mutationOptions({
      onSuccess: () => notifyOk(m.gaveUp),
      onError: (error) => notifyFailure(error, { title: m.giveUpError }),
      onSettled: async () => {
        setOpened(false);
        await queryClient.invalidateQueries({ queryKey: trpc.claim.pathKey() });
      },
    }),
  );
  return (
    <>
      <Button variant="subtle" color="red" size="compact-sm" style={{ alignSelf: "flex-start" }} onClick={() => setOpened(true)}>
        {m.giveUp}
      </Button>
      <ConfirmDialog
        opened={opened}
        title={m.giveUpTitle}
        text={m.giveUpText}
        confirmLabel={m.giveUpConfirm}
        cancelLabel={m.giveUpKeep}
        color="red"
        loading={giveUp.isPending}
        onConfirm={() => giveUp.mutate({ transactionId })}
        onClose={() => setOpened(false)}
      />
    </>
  );
}

/** 'Listas de espera': the parent's places in sold-out benefits' lines, an offer first (decision 123). */
function WaitlistSection({ places }: { places: WaitlistEntry[] }) {
  return (
    <Stack gap="sm" data-testid="waitlist-section">
      <Title order={2} fz="xl">
        {w.panelTitle}
      </Title>
      <Text c="dimmed">{w.panelIntro}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {[...places]
          .sort((a, b) => Number(b.status === "offered") - Number(a.status === "offered"))
          .map((p) => (
            <Card key={p.discountId} withBorder radius="md" padding="lg" data-testid="waitlist-entry">
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={0} miw={0}>
                    <Title order={3} fz="lg">
                      {p.className}
                    </Title>
                    <Text size="sm" c="dimmed">
                      {p.schoolName}
                    </Text>
                  </Stack>
                  <Badge color="red" size="lg" style={{ flexShrink: 0 }}>
                    {percentOff(p.discountPercentage)}
                  </Badge>
                </Group>
                <WaitlistBox discountId={p.discountId} place={p} />
              </Stack>
            </Card>
          ))}
      </SimpleGrid>
    </Stack>
  );
}
