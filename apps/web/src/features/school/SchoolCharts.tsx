import { chartsUi } from "@elo/shared";
import { BarChart } from "@mantine/charts";
import { SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { ChartCard } from "../charts/ChartCard";
import { ChartsLoading } from "../charts/ChartsLoading";
import { formatCount } from "../charts/format";
import { ConversionChart, WeeklyVouchersChart } from "../charts/WeeklyCharts";
import { trpc } from "../../lib/trpc";

/** The school home's charts, loaded with their own chunk after the counters (docs/decisions/130). */
export default function SchoolCharts() {
  const charts = useQuery(trpc.school.charts.queryOptions());
  if (charts.isPending) return <ChartsLoading />;
  if (charts.isError) return <Text c="red.9">{chartsUi.loadError}</Text>;
  const { weeks, reciprocity } = charts.data;
  const { ownFamiliesElsewhere: out, otherFamiliesHere: into } = reciprocity;
  // Bars side by side per measure, so the give (blue) and the take (green) are compared at a glance.
  const give = [
    { label: chartsUi.reservedFamilies, out: out.reserved, into: into.reserved },
    { label: chartsUi.usedFamilies, out: out.used, into: into.used },
  ];
  return (
    <Stack gap="md">
      <Title order={2}>{chartsUi.sectionTitle}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <WeeklyVouchersChart weeks={weeks} testId="chart-weekly" />
        <ConversionChart weeks={weeks} testId="chart-conversion" />
      </SimpleGrid>
      <ChartCard
        title={chartsUi.reciprocityTitle}
        text={chartsUi.reciprocityText}
        testId="chart-reciprocity"
        table={{
          columns: [chartsUi.direction, chartsUi.familiesReserved, chartsUi.familiesUsed],
          rows: [
            [chartsUi.ownElsewhere, formatCount(out.reserved), formatCount(out.used)],
            [chartsUi.othersHere, formatCount(into.reserved), formatCount(into.used)],
          ],
        }}
      >
        <BarChart
          h={220}
          data={give}
          dataKey="label"
          series={[
            { name: "out", label: chartsUi.ownElsewhere, color: "blue.8" },
            { name: "into", label: chartsUi.othersHere, color: "teal.9" },
          ]}
          valueFormatter={formatCount}
          yAxisProps={{ allowDecimals: false }}
          maxBarWidth={56}
          withLegend
          tickLine="y"
          accessibilityLayer={false}
        />
      </ChartCard>
    </Stack>
  );
}
