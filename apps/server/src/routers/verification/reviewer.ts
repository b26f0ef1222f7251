import { schema } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { and, eq, gte, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Context } from "../../trpc/init";
import type { StaffContext } from "../school/staff-context";

const { enrollmentProofs: p } = schema;

/** Who reviews enrollment proofs: the approved staff of the school a proof names, or an administrator. */
export type Reviewer = { kind: "school"; userId: string; schoolId: string } | { kind: "admin"; userId: string };

export const schoolReviewer = (ctx: StaffContext): Reviewer => ({ kind: "school", userId: ctx.user.id, schoolId: ctx.schoolId });
export const adminReviewer = (ctx: Context & { user: { id: string } }): Reviewer => ({ kind: "admin", userId: ctx.user.id });

/**
 * The proofs a reviewer may see: a school's staff, only the live proofs that name their school,
 * while pending or decided in the last 30 days; an administrator, every live proof.
 */
export function visibleTo(reviewer: Reviewer, now: Date): SQL {
  const live = isNull(p.replacedAt);
  if (reviewer.kind === "admin") return live;
  const since = new Date(now.getTime() - LIMITS.proofDecidedVisibleDays * 24 * 60 * 60 * 1000);
  return and(live, eq(p.schoolId, reviewer.schoolId), or(eq(p.status, "enviado"), gte(p.decidedAt, since)))!;
}

/** Schools with approved staff in the network decide their own proofs; the admin queue shows the others. */
export const schoolHasStaff = sql`exists (select 1 from school_memberships m where m.school_id = ${p.schoolId} and m.status = 'approved')`;
