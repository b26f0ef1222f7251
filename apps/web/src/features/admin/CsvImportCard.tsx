import { adminMessages, adminUiMessages, CSV_IMPORT_CHUNK, LIMITS } from "@elo/shared";
import { Alert, Badge, Button, Card, Checkbox, FileButton, Group, Progress, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { errorToast, notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { queryClient as sharedClient, trpc, trpcClient } from "../../lib/trpc";
import type { CsvPreview, CsvPreviewRow } from "./types";

const STATUS_COLOR = { valid: "teal", warning: "yellow", invalid: "red" } as const;

function downloadText(fileName: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const rawRow = ({ status: _s, message: _m, selectable: _x, ...raw }: CsvPreviewRow) => raw;

/** Bulk import: template, file choice, preview with per-row status, import in chunks with real progress. */
export function CsvImportCard() {
  const queryClient = useQueryClient();
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [progress, setProgress] = useState<number | null>(null);
  // Lets the same file be chosen again after a cancel or an error.
  const resetFile = useRef<() => void>(null);

  const previewMutation = useMutation(trpc.admin.csv.preview.mutationOptions());

  async function downloadTemplate() {
    try {
      const template = await sharedClient.fetchQuery(trpc.admin.csv.template.queryOptions());
      downloadText(template.fileName, template.content);
      notifyOk(adminMessages.csvTemplateDownloaded);
    } catch (error) {
      notifyFailure(error, { title: adminMessages.csvParseError(String(error)) });
    }
  }

  async function choose(file: File | null) {
    resetFile.current?.();
    if (!file) return;
    if (!file.name.toLowerCase().endsWith(".csv")) return notifyError(adminMessages.csvNotCsv);
    if (file.size > LIMITS.csvMaxBytes) return notifyError(adminMessages.csvTooLarge);
    const loading = notifications.show({ title: adminMessages.csvProcessing, message: "", loading: true, autoClose: false });
    const form = new FormData();
    form.append("file", file);
    try {
      const result = await previewMutation.mutateAsync(form);
      notifications.hide(loading);
      setPreview(result);
      setSelected(new Set(result.rows.filter((r) => r.selectable).map((r) => r.index)));
      // One toast at a time: the truncation rides in the processed toast and stays in an Alert above the preview.
      notifyOk({
        title: adminMessages.csvProcessed(result.counts.valid, result.counts.warning, result.counts.invalid),
        description: result.truncated ? adminMessages.csvMaxRows : undefined,
      });
    } catch (error) {
      notifications.hide(loading);
      notifyFailure(error, { title: adminMessages.csvParseError(error instanceof Error ? error.message : "") });
    }
  }

  function cancel() {
    setPreview(null);
    setSelected(new Set());
    setProgress(null);
  }

  async function runImport() {
    if (!preview) return;
    const rows = preview.rows.filter((r) => r.selectable && selected.has(r.index)).map(rawRow);
    if (!rows.length) return notifyError(adminMessages.csvNoSelection);
    const totals = { created: 0, updated: 0, errors: 0 };
    setProgress(0);
    try {
      for (let i = 0; i < rows.length; i += CSV_IMPORT_CHUNK) {
        const result = await trpcClient.admin.csv.import.mutate({ rows: rows.slice(i, i + CSV_IMPORT_CHUNK) });
        totals.created += result.created;
        totals.updated += result.updated;
        totals.errors += result.errors;
        setProgress(Math.round((Math.min(i + CSV_IMPORT_CHUNK, rows.length) / rows.length) * 100));
      }
      notifyOk(adminMessages.csvImportDone(totals.created, totals.updated, totals.errors));
      cancel();
    } catch (error) {
      const toast = errorToast(error, { title: "" });
      notifyError(adminMessages.csvImportError(toast.description ?? toast.title));
      setProgress(null);
    } finally {
      await queryClient.invalidateQueries({ queryKey: trpc.admin.schools.pathKey() });
    }
  }

  const selectable = preview?.rows.filter((r) => r.selectable) ?? [];
  const selectedCount = selectable.filter((r) => selected.has(r.index)).length;
  const importing = progress !== null;
  const toggle = (index: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(index);
      else next.delete(index);
      return next;
    });

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} style={{ flex: "1 1 260px" }}>
            <Title order={2} size="h3">
              {adminUiMessages.csvTitle}
            </Title>
            <Text size="sm" c="dimmed">
              {adminUiMessages.csvHelp}
            </Text>
          </Stack>
          <Group gap="xs">
            <Button variant="default" onClick={downloadTemplate}>
              {adminUiMessages.csvTemplate}
            </Button>
            <FileButton onChange={choose} accept=".csv,text/csv" disabled={importing} resetRef={resetFile}>
              {(props) => (
                <Button {...props} loading={previewMutation.isPending}>
                  {adminUiMessages.csvChoose}
                </Button>
              )}
            </FileButton>
          </Group>
        </Group>
        {preview && (
          <Stack data-testid="csv-preview">
            {preview.truncated && (
              <Alert color="yellow" title={adminMessages.csvMaxRows} data-testid="csv-truncated">
                {adminUiMessages.csvTruncated}
              </Alert>
            )}
            <Group justify="space-between">
              <Text size="sm">{adminUiMessages.csvSummary(preview.counts.valid, preview.counts.warning, preview.counts.invalid)}</Text>
              <Group gap="xs">
                <Button variant="default" onClick={cancel} disabled={importing}>
                  {adminUiMessages.csvCancel}
                </Button>
                <Button onClick={runImport} loading={importing} disabled={importing}>
                  {adminUiMessages.csvImport(selectedCount)}
                </Button>
              </Group>
            </Group>
            {importing && (
              <Stack gap={4}>
                <Progress value={progress} animated aria-label={adminUiMessages.csvProgress(progress)} data-testid="csv-progress" />
                <Text size="sm" ta="center">
                  {adminUiMessages.csvProgress(progress)}
                </Text>
              </Stack>
            )}
            <Table.ScrollContainer minWidth={900} maxHeight={480}>
              <Table striped stickyHeader>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <Checkbox
                        aria-label={adminUiMessages.csvSelectAll}
                        checked={selectable.length > 0 && selectedCount === selectable.length}
                        indeterminate={selectedCount > 0 && selectedCount < selectable.length}
                        onChange={(e) => setSelected(e.currentTarget.checked ? new Set(selectable.map((r) => r.index)) : new Set())}
                        disabled={importing}
                      />
                    </Table.Th>
                    <Table.Th>{adminUiMessages.csvColumnRow}</Table.Th>
                    <Table.Th>{adminUiMessages.fieldName}</Table.Th>
                    <Table.Th>{adminUiMessages.fieldCategory}</Table.Th>
                    <Table.Th>{adminUiMessages.fieldModality}</Table.Th>
                    <Table.Th>{adminUiMessages.fieldCity}</Table.Th>
                    <Table.Th>{adminUiMessages.fieldState}</Table.Th>
                    <Table.Th>{adminUiMessages.fieldNeighborhood}</Table.Th>
                    <Table.Th>{adminUiMessages.csvColumnStatus}</Table.Th>
                    <Table.Th>{adminUiMessages.csvColumnMessage}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.rows.map((r) => (
                    <Table.Tr key={r.index} data-status={r.status}>
                      <Table.Td>
                        <Checkbox
                          aria-label={`${adminUiMessages.csvColumnRow} ${r.index}`}
                          checked={r.selectable && selected.has(r.index)}
                          disabled={!r.selectable || importing}
                          onChange={(e) => toggle(r.index, e.currentTarget.checked)}
                        />
                      </Table.Td>
                      <Table.Td>{r.index}</Table.Td>
                      <Table.Td>{r.name}</Table.Td>
                      <Table.Td>{r.categoria}</Table.Td>
                      <Table.Td>{r.modalidade}</Table.Td>
                      <Table.Td>{r.city}</Table.Td>
                      <Table.Td>{r.uf}</Table.Td>
                      <Table.Td>{r.neighborhood}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[r.status]} variant="light" miw="max-content">
                          {adminUiMessages.csvStatus[r.status]}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs">{r.message}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
