import { schema, type Database } from "@elo/db";
import { and, eq, isNull, ne } from "drizzle-orm";
import { proofIdsIn, queueDiscardNotices, type NoticeDeps } from "../../access-log/discard-notices";

const { enrollmentProofs: p } = schema;

/** Which enrollment a proof is for: the main one (null) or one of the parent's other enrollments. */
const slot = (userId: string, enrollmentId: string | null) => and(eq(p.userId, userId), enrollmentId ? eq(p.enrollmentId, enrollmentId) : isNull(p.enrollmentId));

/**
 * A new proof enters the school's queue as 'enviado' (inside the upload's transaction): the live
 * proof of the same enrollment, pending or decided, is marked replaced and leaves every queue.
 * The caller holds the parent's account row locked, so two uploads of one parent queue up.
 */
export async function recordProof(
  tx: Database,
  proof: { userId: string; enrollmentId: string | null; schoolId: string; fileKey: string; studentName: string | null; declaredClass: string | null; at: Date },
) {
  const replaced = await tx
    .update(p)
    .set({ replacedAt: proof.at })
    .where(and(slot(proof.userId, proof.enrollmentId), isNull(p.replacedAt)))
    .returning({ id: p.id });
  const { at, ...row } = proof;
  await tx.insert(p).values({ ...row, submittedAt: at });
  /** The proofs this one replaced (their schools' staff are asked to discard copies). */
  return replaced.map((r) => r.id);
}

/**
 * An enrollment now names another school (or the main school changed): its live proof names the
 * old one, so it leaves that school's queue. A verification given by the old school never counts
 * for the new one (the claim compares schools). The withdrawn proof is a replaced one for LGPD
 * art. 18 § 6: the staff of the schools that opened it are asked, in the same transaction, to
 * discard copies (decision 193). Returns how many notices were queued.
 */
export async function withdrawProofsOfOtherSchool(deps: NoticeDeps, tx: Database, userId: string, enrollmentId: string | null, schoolId: string, at: Date) {
  const withdrawn = await tx
    .update(p)
    .set({ replacedAt: at })
    .where(and(slot(userId, enrollmentId), isNull(p.replacedAt), ne(p.schoolId, schoolId)))
    .returning({ id: p.id });
  if (withdrawn.length === 0) return 0;
  return queueDiscardNotices(deps, tx, userId, proofIdsIn(withdrawn.map((w) => w.id)));
}
