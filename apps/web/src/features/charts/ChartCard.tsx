import "@mantine/charts/styles.css";
import { chartsUi } from "@elo/shared";
import { Card, Group, SegmentedControl, Stack, Table, Text, Title } from "@mantine/core";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";

interface ChartTable {
  columns: string[];
  rows: (string | number)[][];
}

/**
 * Keeps the groups recharts draws out of the Tab order: Chromium stops on its z-index layer `<g>`s
 * (found by the keyboard journeys), a stop with nothing to show inside an image whose figures are
 * in the table. The layers are added after the first render, hence the observer.
 */
function useNoTabStopsInside(active: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!active || !root) return;
    const untab = () => root.querySelectorAll("svg g:not([tabindex])").forEach((g) => g.setAttribute("tabindex", "-1"));
    untab();
    const observer = new MutationObserver(untab);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [active]);
  return ref;
}

/**
 * A chart with its text alternative: the same figures as a table, one toggle away. While the chart
 * shows, assistive technology reads one image with a sentence pointing to the table.
 */
export function ChartCard({ title, text, table, children, testId }: { title: string; text?: string; table: ChartTable; children: ReactNode; testId?: string }) {
  const [view, setView] = useState<"chart" | "table">("chart");
  const titleId = useId();
  const chartRef = useNoTabStopsInside(view === "chart");
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId} data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ flex: "1 1 220px" }}>
            <Title order={3} size="h4" id={titleId}>
              {title}
            </Title>
            {text && (
              <Text size="sm" c="dimmed">
                {text}
              </Text>
            )}
          </Stack>
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v as "chart" | "table")}
            aria-label={chartsUi.viewAs(title)}
            data={[
              { value: "chart", label: chartsUi.showChart },
              { value: "table", label: chartsUi.showTable },
            ]}
          />
        </Group>
        {view === "chart" ? (
          <div role="img" aria-label={chartsUi.chartSummary(title)} ref={chartRef}>
            {children}
          </div>
        ) : (
          <Table.ScrollContainer minWidth={280}>
            <Table striped withTableBorder fz="sm" horizontalSpacing="xs" data-testid={testId && `${testId}-table`}>
              <Table.Thead>
                <Table.Tr>
                  {table.columns.map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {table.rows.map((row, i) => (
                  <Table.Tr key={i}>
                    {row.map((cell, j) => (j === 0 ? <Table.Th key={j} scope="row">{cell}</Table.Th> : <Table.Td key={j}>{cell}</Table.Td>))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
