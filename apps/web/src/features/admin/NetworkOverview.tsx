import { chartsUi, PLANS, type PlanType } from "@elo/shared";
import { BarChart } from "@mantine/charts";
import { SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { ChartCard } from "../charts/ChartCard";
import { ChartsLoading } from "../charts/ChartsLoading";
import { formatCount } from "../charts/format";
import { WeeklyVouchersChart } from "../charts/WeeklyCharts";
import { trpc } from "../../lib/trpc";

const planName = (plan: PlanType | "none") => (plan === "none" ? chartsUi.noPlan : PLANS[plan].name);
const schoolsSeries = [{ name: "schools", label: chartsUi.schools, color: "blue.8" }];

/** /admin-escolas' overview: schools by plan and by UF, the network's vouchers per week (its own chunk). */
export default function NetworkOverview() {
  const overview = useQuery(trpc.admin.schools.overview.queryOptions());
  if (overview.isPending) return <ChartsLoading />;
  if (overview.isError) return <Text c="red.9">{chartsUi.loadError}</Text>;
  const byPlan = overview.data.byPlan.map((p) => ({ label: planName(p.plan), schools: p.schools }));
  const byUf = overview.data.byUf.map((u) => ({ label: u.uf ?? chartsUi.noUf, schools: u.schools }));
  return (
    <Stack gap="md">
      <Title order={2}>{chartsUi.overviewTitle}</Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <ChartCard title={chartsUi.byPlanTitle} testId="chart-plans" table={{ columns: [chartsUi.plan, chartsUi.schools], rows: byPlan.map((p) => [p.label, formatCount(p.schools)]) }}>
          <BarChart h={240} data={byPlan} dataKey="label" series={schoolsSeries} valueFormatter={formatCount} yAxisProps={{ allowDecimals: false }} maxBarWidth={40} tickLine="y" accessibilityLayer={false} />
        </ChartCard>
        <ChartCard title={chartsUi.byUfTitle} testId="chart-ufs" table={{ columns: [chartsUi.uf, chartsUi.schools], rows: byUf.map((u) => [u.label, formatCount(u.schools)]) }}>
          <BarChart
            h={Math.max(240, 28 * byUf.length + 40)}
            data={byUf}
            dataKey="label"
            orientation="vertical"
            series={schoolsSeries}
            valueFormatter={formatCount}
            xAxisProps={{ allowDecimals: false }}
            yAxisProps={{ width: 48 }}
            maxBarWidth={20}
            tickLine="x"
            gridAxis="y"
            accessibilityLayer={false}
          />
        </ChartCard>
        <WeeklyVouchersChart weeks={overview.data.weeks} title={chartsUi.networkWeeklyTitle} testId="chart-network-weekly" />
      </SimpleGrid>
    </Stack>
  );
}
