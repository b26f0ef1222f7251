import { schema, type Database } from "@elo/db";
import { verificationMessages as v, type ProofRefusalReason, type ProofStatus } from "@elo/shared";
import { and, eq, isNull, sql } from "drizzle-orm";

const { enrollmentProofs: p, schools } = schema;

/** What /meus-dados shows about one enrollment's proof (issue 21). */
export interface EnrollmentVerification {
  /** The latest proof's state; `none` before any proof was recorded. */
  status: ProofStatus | "none";
  refusalReason: ProofRefusalReason | null;
  refusalNote: string | null;
  submittedAt: Date | null;
  decidedAt: Date | null;
  /** Who decided, as the parent reads it: the school's name or the platform's team. */
  decidedBy: string | null;
  /** The latest proof was verified but its school year is over (yyyy-MM-dd of its last day). */
  lapsedOn: string | null;
  /** A verification of this enrollment's school that holds today (possibly an older proof's), until this day. */
  validUntil: string | null;
}

const NONE: EnrollmentVerification = { status: "none", refusalReason: null, refusalNote: null, submittedAt: null, decidedAt: null, decidedBy: null, lapsedOn: null, validUntil: null };

/** Each enrollment's verification, keyed by enrollment id (`main` for the main enrollment), on `today` (yyyy-MM-dd). */
export async function verificationsOf(db: Database, userId: string, today: string) {
  const rows = await db
    .select({
      enrollmentId: p.enrollmentId,
      status: p.status,
      refusalReason: p.refusalReason,
      refusalNote: p.refusalNote,
      submittedAt: p.submittedAt,
      decidedAt: p.decidedAt,
      decidedByAdmin: p.decidedByAdmin,
      schoolName: schools.name,
      verifiedUntil: p.verifiedUntil,
      validUntil: sql<string | null>`(
        select max(o.verified_until)::text from enrollment_proofs o
        where o.user_id = ${p.userId} and o.enrollment_id is not distinct from ${p.enrollmentId} and o.school_id = ${p.schoolId}
          and o.status = 'verificado' and o.verified_until >= ${today}::date)`,
    })
    .from(p)
    .innerJoin(schools, eq(schools.id, p.schoolId))
    .where(and(eq(p.userId, userId), isNull(p.replacedAt)));
  const byEnrollment = new Map<string, EnrollmentVerification>();
  for (const r of rows) {
    byEnrollment.set(r.enrollmentId ?? "main", {
      status: r.status,
      refusalReason: r.refusalReason,
      refusalNote: r.refusalNote,
      submittedAt: r.submittedAt,
      decidedAt: r.decidedAt,
      decidedBy: r.decidedAt ? (r.decidedByAdmin ? v.platformTeam : r.schoolName) : null,
      lapsedOn: r.status === "verificado" && r.verifiedUntil && r.verifiedUntil < today ? r.verifiedUntil : null,
      validUntil: r.validUntil,
    });
  }
  return (enrollmentId: string | null) => byEnrollment.get(enrollmentId ?? "main") ?? NONE;
}
