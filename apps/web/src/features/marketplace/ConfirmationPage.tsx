import { Alert, Avatar, Badge, Button, Card, Center, Divider, Group, List, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { CANCEL_REASON_LABELS, DISCOUNT_VALIDITY_LABELS, formatBRL, formatDate, LIMITS, marketplaceMessages as m, VOUCHER_STATUS_LABELS, voucherQrMessages as qr } from "@elo/shared";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { errorToast } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { Page } from "../common/Page";
import { VOUCHER_STATUS_COLORS } from "../common/voucherStatus";
import { VoucherQr } from "../voucher-qr/VoucherQr";
import { percentOff } from "./format";

/** /confirmacao-desconto?transaction=id: the caller's own reservation and its voucher. */
export function ConfirmationPage({ transactionId }: { transactionId: string }) {
  const query = useQuery({ ...trpc.claim.byId.queryOptions({ transactionId }), retry: false });
  const navigate = useNavigate();

  // Spec 1 §8: every failure shows a clear message, then goes to /home (an in-page message, not an alert).
  useEffect(() => {
    if (!query.isError) return;
    const timer = setTimeout(() => void navigate({ to: "/home", replace: true }), LIMITS.redirectInvalidLinkMs);
    return () => clearTimeout(timer);
  }, [query.isError, navigate]);

  if (query.isPending) {
    return (
      <Center mih="50vh" aria-busy="true">
        <Stack align="center">
          <Loader aria-label={m.confirmationLoading} />
          <Text c="dimmed">{m.confirmationLoading}</Text>
        </Stack>
      </Center>
    );
  }

  if (query.isError) {
    const toast = errorToast(query.error, { title: m.transactionNotFound });
    return (
      <Page size="sm">
        <Alert color="red" title={toast.title} role="alert">
          <Stack gap="sm" align="flex-start">
            {toast.description && <Text size="sm">{toast.description}</Text>}
            <Text size="sm">{m.confirmationRedirecting}</Text>
            <Button component={Link} to="/home" variant="light" color="red">
              {m.backHome}
            </Button>
          </Stack>
        </Alert>
      </Page>
    );
  }

  const c = query.data;
  return (
    <Page size="sm">
      <Title order={1} fz={{ base: 24, sm: 30 }}>
        {m.summaryTitle}
      </Title>
      {c.status !== "reservado" && (
        <Alert color={VOUCHER_STATUS_COLORS[c.status]} data-testid="voucher-status">
          {m.voucherNotReservedNote(VOUCHER_STATUS_LABELS[c.status])}
          {c.cancelReason ? ` · ${m.cancelReason(CANCEL_REASON_LABELS[c.cancelReason])}` : ""}
        </Alert>
      )}
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Avatar src={c.schoolLogoUrl} alt={c.schoolName} radius="md" size="lg" color="blue">
              {c.schoolName.charAt(0).toUpperCase()}
            </Avatar>
            <Stack gap={0} miw={0}>
              <Text fw={600}>{c.schoolName}</Text>
              <Text size="sm" c="dimmed">
                {c.className}
              </Text>
            </Stack>
          </Group>
          <Badge color="red" size="xl" style={{ flexShrink: 0 }}>
            {percentOff(c.discountPercentage)}
          </Badge>
        </Group>
      </Card>

      <Paper withBorder radius="md" p="lg" bg="teal.0">
        <Stack gap="md">
          <Title order={2} fz="xl" c="teal.9">
            {m.reservedTitle}
          </Title>
          <Group justify="space-between" align="center" gap="md">
            <Stack gap={2} miw={0}>
              <Text size="sm" c="dimmed">
                {m.voucherLabel}
              </Text>
              <Text data-testid="voucher-code" fz={36} fw={800} ff="monospace" style={{ letterSpacing: 3 }}>
                {c.voucherCode}
              </Text>
              {c.status === "reservado" && (
                <Text size="sm" c="dimmed" maw={280}>
                  {qr.hint}
                </Text>
              )}
            </Stack>
            {c.status === "reservado" && <VoucherQr address={c.deskUrl} code={c.voucherCode} size={180} />}
          </Group>
          <Divider />
          <Group justify="space-between" wrap="wrap">
            <Text>{m.discountedFeeLabel}</Text>
            <Text fw={800} fz="xl" c="blue.8" data-testid="discounted-fee">
              {formatBRL(c.discountedFee)}
            </Text>
          </Group>
          <Group justify="space-between" wrap="wrap">
            <Text>{m.normalFeeLabel}</Text>
            <Text fw={600} data-testid="monthly-fee">
              {formatBRL(c.monthlyFee)}
            </Text>
          </Group>
          <Group justify="space-between" wrap="wrap">
            <Text>{m.validityLabel}</Text>
            <Text fw={500} ta="right">
              {DISCOUNT_VALIDITY_LABELS[c.discountValidity]} · {m.validUntil(formatDate(c.validUntil))}
            </Text>
          </Group>
          {c.presentBy && (
            <Text fw={600} c="orange.9" data-testid="present-by">
              {m.presentBy(formatDate(c.presentBy))}
            </Text>
          )}
        </Stack>
      </Paper>

      <List spacing="xs" size="sm">
        <List.Item>{m.officeNote}</List.Item>
        <List.Item>{m.notEnrollmentNote}</List.Item>
        <List.Item>{m.tuitionNote}</List.Item>
      </List>

      <Button component={Link} to="/home" size="md" style={{ alignSelf: "flex-start" }}>
        {m.backHome}
      </Button>
    </Page>
  );
}
