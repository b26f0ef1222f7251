import { schema } from "@elo/db";
import { and, asc, desc, eq, not, sql, type SQL } from "drizzle-orm";
import type { Context } from "../../trpc/init";
import type { StaffContext } from "../school/staff-context";
import { adminReviewer, schoolHasStaff, schoolReviewer, visibleTo, type Reviewer } from "./reviewer";

const { enrollmentProofs: p, profiles, schools } = schema;

/** The queue rows: who, which student and class, when sent, and the decision once there is one. */
async function queue(ctx: Context, reviewer: Reviewer, extra?: SQL) {
  return await ctx.db
    .select({
      id: p.id,
      main: sql<boolean>`${p.enrollmentId} is null`,
      parentName: profiles.fullName,
      studentName: p.studentName,
      declaredClass: p.declaredClass,
      schoolId: p.schoolId,
      schoolName: schools.name,
      status: p.status,
      refusalReason: p.refusalReason,
      refusalNote: p.refusalNote,
      submittedAt: p.submittedAt,
      decidedAt: p.decidedAt,
      decidedByAdmin: p.decidedByAdmin,
      decidedByName: sql<string | null>`(select d.full_name from profiles d where d.user_id = ${p.decidedBy})`,
    })
    .from(p)
    .innerJoin(profiles, eq(profiles.userId, p.userId))
    .innerJoin(schools, eq(schools.id, p.schoolId))
    .where(and(visibleTo(reviewer, ctx.clock.now()), extra))
    // Pending first, oldest first (first come, first served); then the latest decisions.
    .orderBy(desc(sql`${p.status} = 'enviado'`), asc(sql`case when ${p.status} = 'enviado' then ${p.submittedAt} end`), desc(p.decidedAt), asc(p.id))
    .limit(300);
}

/** 'Confirmar matrículas': the school's pending proofs and its decisions of the last 30 days. */
export const schoolQueueHandler = ({ ctx }: { ctx: StaffContext }) => queue(ctx, schoolReviewer(ctx));

/** /admin-pais: pending proofs of schools without staff in the network (or of every school). */
export function adminQueueHandler({ ctx, input }: { ctx: Context & { user: { id: string } }; input?: { scope: "unstaffed" | "all" } }) {
  const scope = input?.scope ?? "unstaffed";
  return queue(ctx, adminReviewer(ctx), and(eq(p.status, "enviado"), scope === "unstaffed" ? not(schoolHasStaff) : undefined));
}
