import { operationsMessages as m } from "@elo/shared";
import { BarChart } from "@mantine/charts";
import { ChartCard } from "../charts/ChartCard";
import { formatCount } from "../charts/format";

const hourLabel = new Intl.DateTimeFormat("pt-BR", { hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" });

export interface ActivityHour {
  hour: string;
  jobRuns: number;
  jobFailures: number;
  refusals: number;
  outboxRetries: number;
  outboxGivenUp: number;
}

const SERIES = [
  { name: "jobRuns", label: m.jobRuns, color: "blue.8" },
  { name: "jobFailures", label: m.jobFailures, color: "red.9" },
  { name: "refusals", label: m.refusals, color: "grape.8" },
  { name: "outboxRetries", label: m.outboxRetries, color: "orange.9" },
  { name: "outboxGivenUp", label: m.outboxGivenUp, color: "dark.6" },
] as const;

/** Every replica's job runs, refusals and failed sends per hour, the last 24 hours (decision 188). */
export default function ActivityPerHourChart({ hours }: { hours: ActivityHour[] }) {
  const data = hours.map((h) => ({ ...h, label: hourLabel.format(new Date(h.hour)) }));
  return (
    <ChartCard
      title={m.activityChartTitle}
      testId="ops-activity-chart"
      table={{ columns: [m.hour, ...SERIES.map((s) => s.label)], rows: data.map((d) => [d.label, ...SERIES.map((s) => formatCount(d[s.name]))]) }}
    >
      <BarChart
        h={240}
        data={data}
        dataKey="label"
        series={SERIES.map((s) => ({ ...s }))}
        valueFormatter={formatCount}
        yAxisProps={{ allowDecimals: false }}
        maxBarWidth={16}
        withLegend
        tickLine="y"
        accessibilityLayer={false}
      />
    </ChartCard>
  );
}
