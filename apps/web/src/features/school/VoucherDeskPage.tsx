import { CANCEL_REASON_LABELS, CANCEL_REASONS, formatBRL, formatDate, schoolMessages, schoolUi, verificationMessages, voucherQrMessages as qr, VOUCHER_STATUS_LABELS, VOUCHER_STATUSES, type CancelReason, type VoucherStatus } from "@elo/shared";
import { Anchor, Badge, Button, Card, Group, NativeSelect, Radio, SegmentedControl, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconQrcode } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorToast, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { ConfirmDialog } from "../common/ConfirmDialog";
import { Page } from "../common/Page";
import { VOUCHER_STATUS_COLORS } from "../common/voucherStatus";
import { QrScanDialog } from "../voucher-qr/QrScanDialog";
import { StaffGate } from "./StaffGate";


/** /painel-escola: the school office's voucher desk (beyond the spec); `initialCode` comes from ?voucher=. */
export function VoucherDeskPage({ initialCode }: { initialCode?: string }) {
  return (
    <StaffGate title={schoolUi.deskTitle}>
      <VoucherDesk initialCode={initialCode} />
    </StaffGate>
  );
}

const filterOptions = [{ value: "all", label: schoolUi.allStatuses }, ...VOUCHER_STATUSES.map((s) => ({ value: s, label: VOUCHER_STATUS_LABELS[s] }))];

function StatusBadge({ status }: { status: VoucherStatus }) {
  return (
    <Badge color={VOUCHER_STATUS_COLORS[status]} variant="light">
      {VOUCHER_STATUS_LABELS[status]}
    </Badge>
  );
}

function VoucherDesk({ initialCode }: { initialCode?: string }) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState(initialCode ?? "");
  const [code, setCode] = useState<string | null>(initialCode ?? null);
  const [filter, setFilter] = useState<VoucherStatus | "all">("all");
  const voucher = useQuery({ ...trpc.school.vouchers.lookup.queryOptions({ code: code ?? "" }), enabled: !!code, retry: false, staleTime: 0 });
  const list = useQuery(trpc.school.vouchers.list.queryOptions({ status: filter === "all" ? null : filter }));
  const confirm = useMutation(
    trpc.school.vouchers.confirm.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.voucherConfirmed);
        await queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
      },
      onError: async (error) => {
        notifyFailure(error, { title: schoolMessages.voucherNotFound });
        await queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
      },
    }),
  );
  const [cancelling, setCancelling] = useState(false);
  const [reason, setReason] = useState<CancelReason | null>(null);
  const cancel = useMutation(
    trpc.school.vouchers.cancel.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.voucherCancelled);
        setCancelling(false);
        await queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
      },
      onError: async (error) => {
        notifyFailure(error, { title: schoolMessages.voucherNotFound });
        setCancelling(false);
        await queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
      },
    }),
  );
  const v = voucher.data;
  const [scanning, setScanning] = useState(false);
  /** Looks a code up as typing it does: the row's code, the typed one, or the QR code's. */
  const lookUp = (next: string) => {
    setTyped(next);
    setCode(next);
    if (next === code) void voucher.refetch();
  };

  return (
    <Page title={schoolUi.deskTitle}>
      <Text c="dimmed">{schoolUi.deskIntro}</Text>
      <Card withBorder padding="lg">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const next = typed.trim();
            if (next) lookUp(next);
          }}
        >
          <Group align="flex-end">
            <TextInput label={schoolUi.voucherCode} placeholder="1234-ABCD" value={typed} onChange={(e) => setTyped(e.currentTarget.value.toUpperCase())} maxLength={12} style={{ flex: 1, minWidth: 180 }} styles={{ input: { fontFamily: "monospace" } }} />
            <Group gap="xs" wrap="nowrap">
              <Button type="submit" loading={voucher.isFetching}>
                {schoolUi.search}
              </Button>
              <Button variant="light" leftSection={<IconQrcode size={18} aria-hidden />} onClick={() => setScanning(true)}>
                {qr.scan}
              </Button>
            </Group>
          </Group>
        </form>
        {/* The dialog is part of this (lazily routed) page; its decoder loads when it opens (decision 140). */}
        {scanning && (
          <QrScanDialog
            onClose={() => setScanning(false)}
            onCode={(scanned) => {
              setScanning(false);
              lookUp(scanned);
            }}
          />
        )}
        {voucher.isError && (
          <Text c="red" mt="md" role="alert">
            {errorToast(voucher.error, { title: schoolMessages.voucherNotFound }).title}
          </Text>
        )}
        {v && (
          <Stack mt="lg" gap="sm" data-testid="voucher-result">
            <Group justify="space-between">
              <Title order={3} ff="monospace">
                {v.voucherCode}
              </Title>
              <StatusBadge status={v.status} />
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <Text>
                {schoolUi.student}: <b>{v.studentName ?? "—"}</b>
              </Text>
              <Text>
                {schoolUi.parent}: {v.parentName ?? "—"}
              </Text>
              <Text>
                {schoolUi.tableBenefit}: <b>{v.className}</b> ({v.discountPercentage.toLocaleString("pt-BR")}%)
              </Text>
              <Text>
                {schoolUi.normalFee}: <s>{formatBRL(v.monthlyFee)}</s> → <b>{formatBRL(v.discountedFee)}</b>
              </Text>
              <Text>
                {schoolUi.reservedAt}: {formatDate(v.claimedAt)}
              </Text>
              <Text>
                {schoolUi.validUntil}: {formatDate(v.validUntil)}
              </Text>
              {v.presentBy && (
                <Text>
                  {schoolUi.presentBy}: {formatDate(v.presentBy)}
                </Text>
              )}
            </SimpleGrid>
            <Text size="sm" c={v.enrollmentVerification ? "teal.8" : "dimmed"} data-testid="desk-verification">
              {v.enrollmentVerification ? schoolUi.deskVerifiedBy(v.enrollmentVerification.byAdmin ? verificationMessages.platformTeam : v.enrollmentVerification.schoolName, formatDate(v.enrollmentVerification.decidedAt)) : schoolUi.deskNotVerified}
            </Text>
            {v.status === "utilizado" && v.redeemedAt && (
              <Text size="sm" c="dimmed">
                {schoolUi.usedAt} {formatDate(v.redeemedAt)} {v.redeemedByName ? `${schoolUi.usedBy} ${v.redeemedByName}` : ""}
              </Text>
            )}
            {v.status === "cancelado" && v.cancelReason && (
              <Text size="sm" c="red.8" data-testid="cancel-reason">
                {v.cancelledByParent ? schoolUi.cancelledByParent : `${schoolUi.cancelReason}: ${CANCEL_REASON_LABELS[v.cancelReason]}`}
                {v.endedAt ? ` · ${schoolUi.cancelledAt} ${formatDate(v.endedAt)}` : ""}
              </Text>
            )}
            {v.status === "reservado" && (
              <Group>
                <Button color="teal" loading={confirm.isPending} onClick={() => confirm.mutate({ code: v.voucherCode })}>
                  {schoolMessages.confirmUse}
                </Button>
                <Button
                  variant="outline"
                  color="red"
                  onClick={() => {
                    setReason(null);
                    setCancelling(true);
                  }}
                >
                  {schoolUi.cancelVoucher}
                </Button>
              </Group>
            )}
            <ConfirmDialog
              opened={cancelling}
              title={schoolUi.cancelDialogTitle}
              text={schoolUi.cancelDialogText}
              confirmLabel={schoolUi.cancelVoucher}
              cancelLabel={schoolUi.keepVoucher}
              color="red"
              loading={cancel.isPending}
              confirmDisabled={!reason}
              onConfirm={() => reason && cancel.mutate({ code: v.voucherCode, reason })}
              onClose={() => setCancelling(false)}
            >
              <Radio.Group label={schoolUi.cancelReason} required value={reason} onChange={(x) => setReason(x as CancelReason)} mt="md">
                <Stack gap="xs" mt="xs">
                  {CANCEL_REASONS.map((r) => (
                    <Radio key={r} value={r} label={CANCEL_REASON_LABELS[r]} />
                  ))}
                </Stack>
              </Radio.Group>
            </ConfirmDialog>
            {v.status === "expirado" && <Text c="red">{schoolMessages.voucherExpired}</Text>}
          </Stack>
        )}
      </Card>

      <Group justify="space-between">
        <Title order={2}>{schoolUi.recentVouchers}</Title>
        {/* Five statuses do not fit a phone's width as segments: a select there. */}
        <SegmentedControl visibleFrom="sm" value={filter} onChange={(x) => setFilter(x as VoucherStatus | "all")} data={filterOptions} />
        <NativeSelect hiddenFrom="sm" aria-label={schoolUi.status} value={filter} onChange={(e) => setFilter(e.currentTarget.value as VoucherStatus | "all")} data={filterOptions} />
      </Group>
      {list.data?.length ? (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover data-testid="voucher-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{schoolUi.tableVoucher}</Table.Th>
                <Table.Th>{schoolUi.student}</Table.Th>
                <Table.Th>{schoolUi.tableBenefit}</Table.Th>
                <Table.Th>{schoolUi.reservedAt}</Table.Th>
                <Table.Th>{schoolUi.validUntil}</Table.Th>
                <Table.Th>{schoolUi.status}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((row) => (
                <Table.Tr key={row.id} style={{ cursor: "pointer" }} onClick={() => lookUp(row.voucherCode)}>
                  <Table.Td>
                    {/* The row answers a click; the code is its button for the keyboard. */}
                    <Anchor component="button" type="button" ff="monospace" onClick={(e) => (e.stopPropagation(), lookUp(row.voucherCode))}>
                      {row.voucherCode}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.studentName ?? "—"}</Table.Td>
                  <Table.Td>{row.className}</Table.Td>
                  <Table.Td>{formatDate(row.claimedAt)}</Table.Td>
                  <Table.Td>{formatDate(row.validUntil)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={row.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed">{schoolUi.noVouchers}</Text>
      )}
    </Page>
  );
}
