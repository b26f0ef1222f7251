import { operationsMessages as m } from "@elo/shared";
import { BarChart } from "@mantine/charts";
import { ChartCard } from "../charts/ChartCard";
import { formatCount } from "../charts/format";

const hourLabel = new Intl.DateTimeFormat("pt-BR", { hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" });

/** E-mails queued and sent per hour, the last 24 hours (its own chunk with the charts library). */
export default function EmailsPerHourChart({ hours }: { hours: { hour: string; queued: number; sent: number }[] }) {
  const data = hours.map((h) => ({ label: hourLabel.format(new Date(h.hour)), queued: h.queued, sent: h.sent }));
  return (
    <ChartCard title={m.emailsChartTitle} testId="ops-emails-chart" table={{ columns: [m.hour, m.queued, m.sent], rows: data.map((d) => [d.label, formatCount(d.queued), formatCount(d.sent)]) }}>
      <BarChart
        h={240}
        data={data}
        dataKey="label"
        series={[
          { name: "queued", label: m.queued, color: "blue.8" },
          { name: "sent", label: m.sent, color: "teal.9" },
        ]}
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
