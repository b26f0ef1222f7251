import { BarChart, LineChart } from "@mantine/charts";
import { chartsUi } from "@elo/shared";
import type { inferOutput } from "@trpc/tanstack-react-query";
import type { trpc } from "../../lib/trpc";
import { ChartCard } from "./ChartCard";
import { formatCount, formatShare, weekLabel } from "./format";

/** One week of `weeklyVouchers` (apps/server/src/routers/stats), as the school's and the admin's procedures return it. */
type WeekFigures = inferOutput<typeof trpc.school.charts>["weeks"][number];

const HEIGHT = 260;

/** Vouchers reserved and used per week (the school's or the network's). */
export function WeeklyVouchersChart({ weeks, title = chartsUi.weeklyTitle, testId }: { weeks: WeekFigures[]; title?: string; testId?: string }) {
  const data = weeks.map((w) => ({ label: weekLabel(w.week), reserved: w.reserved, used: w.used }));
  return (
    <ChartCard
      title={title}
      text={chartsUi.weeklyText}
      testId={testId}
      table={{ columns: [chartsUi.week, chartsUi.reserved, chartsUi.used], rows: weeks.map((w) => [weekLabel(w.week), formatCount(w.reserved), formatCount(w.used)]) }}
    >
      <BarChart
        h={HEIGHT}
        data={data}
        dataKey="label"
        series={[
          { name: "reserved", label: chartsUi.reserved, color: "blue.8" },
          { name: "used", label: chartsUi.used, color: "teal.9" },
        ]}
        valueFormatter={formatCount}
        yAxisProps={{ allowDecimals: false }}
        maxBarWidth={40}
        withLegend
        tickLine="y"
        accessibilityLayer={false}
      />
    </ChartCard>
  );
}

/** Of the vouchers reserved each week, the share used by now; weeks without reservations have no point. */
export function ConversionChart({ weeks, testId }: { weeks: WeekFigures[]; testId?: string }) {
  const share = (w: WeekFigures) => (w.reserved === 0 ? null : w.reservedThenUsed / w.reserved);
  return (
    <ChartCard
      title={chartsUi.conversionTitle}
      text={chartsUi.conversionText}
      testId={testId}
      table={{
        columns: [chartsUi.week, chartsUi.reserved, chartsUi.usedSoFar, chartsUi.conversion],
        rows: weeks.map((w) => {
          const s = share(w);
          return [weekLabel(w.week), formatCount(w.reserved), formatCount(w.reservedThenUsed), s === null ? chartsUi.noReservations : formatShare(s)];
        }),
      }}
    >
      <LineChart
        h={HEIGHT}
        data={weeks.map((w) => ({ label: weekLabel(w.week), conversion: share(w) }))}
        dataKey="label"
        series={[{ name: "conversion", label: chartsUi.conversion, color: "blue.8" }]}
        valueFormatter={formatShare}
        yAxisProps={{ domain: [0, 1] }}
        connectNulls={false}
        tickLine="y"
        accessibilityLayer={false}
      />
    </ChartCard>
  );
}
