import { CLASS_PERIOD_LABELS, DISCOUNT_VALIDITY_LABELS, formatDate, schoolMessages, schoolUi, TEACHING_STAGE_LABELS } from "@elo/shared";
import { Modal, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { notifyError } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** 'Detalhes dos Benefícios Reservados': the school's vouchers with the eight columns of spec 2 §2.1. */
export function ReservedDetailsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const details = useQuery({ ...trpc.school.reservedDetails.queryOptions(), enabled: opened });
  useEffect(() => {
    if (details.isError) notifyError({ title: schoolMessages.detailsErrorTitle, description: schoolMessages.detailsErrorDescription });
  }, [details.isError]);
  return (
    <Modal opened={opened} onClose={onClose} title={schoolMessages.reservedDialogTitle} size="xl">
      {details.isPending ? (
        <Text>{schoolMessages.loading}</Text>
      ) : !details.data?.length ? (
        <Text c="dimmed">{schoolMessages.noneReserved}</Text>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                {[schoolUi.tableClass, schoolUi.tableStage, schoolUi.tablePeriod, schoolUi.tableBenefit, schoolUi.tableValidity, schoolUi.tableStudent, schoolUi.tableVoucher, schoolUi.tableReservedAt].map((h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {details.data.map((row) => (
                <Table.Tr key={row.transactionId}>
                  <Table.Td>{row.className}</Table.Td>
                  <Table.Td>{TEACHING_STAGE_LABELS[row.teachingStage]}</Table.Td>
                  <Table.Td>{CLASS_PERIOD_LABELS[row.classPeriod]}</Table.Td>
                  <Table.Td>{row.discountPercentage.toLocaleString("pt-BR")}%</Table.Td>
                  <Table.Td>{DISCOUNT_VALIDITY_LABELS[row.discountValidity]}</Table.Td>
                  <Table.Td>{row.studentName ?? "—"}</Table.Td>
                  <Table.Td ff="monospace">{row.voucherCode}</Table.Td>
                  <Table.Td>{formatDate(row.claimedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
