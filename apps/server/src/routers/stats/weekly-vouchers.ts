import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";

/** Weeks the charts cover: this one and the eleven before it. */
export const CHART_WEEKS = 12;
const ZONE = "America/Sao_Paulo";

/**
 * Vouchers per week (Monday to Sunday, Brasília time) for the last 12 weeks, oldest first, every
 * week present: of one school, or of the whole network when `schoolId` is null. One statement.
 * `week`: its Monday (yyyy-MM-dd); `reserved`: vouchers issued that week, whatever became of them
 * since (used, expired, cancelled...); `used`: vouchers confirmed at a desk that week;
 * `reservedThenUsed`: of those issued that week, how many were used by now (the week's conversion).
 */
export async function weeklyVouchers(db: Database, now: Date, schoolId: string | null) {
  const ofSchool = schoolId === null ? sql`true` : sql`school_id = ${schoolId}`;
  const rows = await queryRows<{ week: string; reserved: number; used: number; reserved_then_used: number }>(db, sql`
    with bounds as (
      select date_trunc('week', ${now.toISOString()}::timestamptz at time zone ${ZONE}) as this_week
    ), weeks as (
      select generate_series(this_week - ${`${CHART_WEEKS - 1} weeks`}::interval, this_week, interval '1 week') as week from bounds
    ), since as (
      select (min(week) at time zone ${ZONE}) as t from weeks
    ), issued as (
      select date_trunc('week', claimed_at at time zone ${ZONE}) as week, count(*) as reserved, count(*) filter (where status = 'utilizado') as reserved_then_used
      from discount_transactions where ${ofSchool} and claimed_at >= (select t from since)
      group by 1
    ), redeemed as (
      select date_trunc('week', redeemed_at at time zone ${ZONE}) as week, count(*) as used
      from discount_transactions where ${ofSchool} and status = 'utilizado' and redeemed_at >= (select t from since)
      group by 1
    )
    select to_char(weeks.week, 'YYYY-MM-DD') as week, coalesce(issued.reserved, 0)::int as reserved, coalesce(redeemed.used, 0)::int as used,
      coalesce(issued.reserved_then_used, 0)::int as reserved_then_used
    from weeks left join issued using (week) left join redeemed using (week)
    order by weeks.week`);
  return rows.map((r) => ({ week: r.week, reserved: r.reserved, used: r.used, reservedThenUsed: r.reserved_then_used }));
}
