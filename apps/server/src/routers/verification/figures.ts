import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { saoPauloDay } from "../../lib/calendar";
import type { Context } from "../../trpc/init";
import type { StaffContext } from "../school/staff-context";

/** Over how many days the admin's median time to a decision is taken. */
export const MEDIAN_WINDOW_DAYS = 90;

/**
 * The school home's figures (issue 21, part 6): how many families have an enrollment in this
 * school verified and current today, and how many proofs naming it wait for a decision.
 */
export async function schoolVerificationFigures(ctx: StaffContext) {
  const today = saoPauloDay(ctx.clock.now());
  const [row] = await queryRows<{ verified: number; waiting: number }>(
    ctx.db,
    sql`select
      (select count(distinct user_id)::int from enrollment_proofs
        where school_id = ${ctx.schoolId} and status = 'verificado' and verified_until >= ${today}::date) as verified,
      (select count(*)::int from enrollment_proofs
        where school_id = ${ctx.schoolId} and status = 'enviado' and replaced_at is null) as waiting`,
  );
  return { verifiedFamilies: row?.verified ?? 0, waitingProofs: row?.waiting ?? 0 };
}

/**
 * The network's figures for the administrator: proofs waiting for a decision (and how many of them
 * name a school without staff, the admin's own queue), the oldest wait, and the median time from
 * proof to decision over the decisions of the last 90 days (null before any).
 */
export async function networkVerificationFigures({ ctx }: { ctx: Context }) {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - MEDIAN_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const [row] = await queryRows<{ waiting: number; unstaffed: number; oldest: string | Date | null; median_hours: number | null; decided: number }>(
    ctx.db,
    sql`select
      count(*) filter (where p.status = 'enviado' and p.replaced_at is null)::int as waiting,
      count(*) filter (where p.status = 'enviado' and p.replaced_at is null
        and not exists (select 1 from school_memberships m where m.school_id = p.school_id and m.status = 'approved'))::int as unstaffed,
      min(p.submitted_at) filter (where p.status = 'enviado' and p.replaced_at is null) as oldest,
      (percentile_cont(0.5) within group (order by extract(epoch from p.decided_at - p.submitted_at))
        filter (where p.decided_at >= ${since.toISOString()}::timestamptz)) / 3600 as median_hours,
      count(*) filter (where p.decided_at >= ${since.toISOString()}::timestamptz)::int as decided
    from enrollment_proofs p`,
  );
  return {
    waiting: row?.waiting ?? 0,
    waitingUnstaffed: row?.unstaffed ?? 0,
    oldestWaitingSince: row?.oldest ? new Date(row.oldest) : null,
    medianHoursToDecision: row?.median_hours === null || row?.median_hours === undefined ? null : Math.round(Number(row.median_hours) * 10) / 10,
    decidedInWindow: row?.decided ?? 0,
    windowDays: MEDIAN_WINDOW_DAYS,
  };
}
