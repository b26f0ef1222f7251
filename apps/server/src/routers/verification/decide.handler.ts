import { schema, type Database } from "@elo/db";
import { PROOF_REFUSAL_REASON_LABELS, verificationMessages as v, type ProofRefusalReason } from "@elo/shared";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { actorOf } from "../../access-log/actor";
import { recordProofDecision } from "../../access-log/record";
import { verificationValidUntil } from "../../lib/calendar";
import { enqueueTemplate, enrollmentDecisionEmail } from "../../mail/templates";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import type { StaffContext } from "../school/staff-context";
import { adminReviewer, schoolReviewer, type Reviewer } from "./reviewer";

const { enrollmentProofs: p, users, profiles, schools } = schema;

type Decision = { verified: true } | { verified: false; reason: ProofRefusalReason; note: string | null };

/** Why a decision matched no row: gone or not the reviewer's (404), their own (403), or decided or replaced meanwhile (409). */
async function whyNot(db: Database, reviewer: Reviewer, proofId: string) {
  const [row] = await db
    .select({ userId: p.userId, schoolId: p.schoolId, replacedAt: p.replacedAt })
    .from(p)
    .where(eq(p.id, proofId));
  if (!row || (reviewer.kind === "school" && row.schoolId !== reviewer.schoolId)) {
    return new AppError("NOT_FOUND", { title: v.decisionErrorTitle, description: v.notFound }, { reason: "not_found" });
  }
  if (row.userId === reviewer.userId) return new AppError("FORBIDDEN", { title: v.decisionErrorTitle, description: v.ownProof }, { reason: "own_proof" });
  if (row.replacedAt) return new AppError("CONFLICT", { title: v.decisionErrorTitle, description: v.replaced }, { reason: "replaced" });
  return new AppError("CONFLICT", { title: v.decisionErrorTitle, description: v.alreadyDecided }, { reason: "already_decided" });
}

/**
 * Confirms or refuses a pending proof, once: ONE conditional UPDATE matches only a live, pending
 * proof the reviewer may decide (its school's staff, or an administrator) and that is not the
 * reviewer's own. Of two reviewers (or a double click) exactly one matches; the other is told the
 * proof was decided. The parent's e-mail is queued in the same transaction.
 */
async function decide(ctx: Context, reviewer: Reviewer, proofId: string, decision: Decision) {
  const now = ctx.clock.now();
  const actor = await actorOf(ctx.db, ctx, reviewer.userId, reviewer.kind === "school" ? reviewer.schoolId : null);
  const outcome = await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    // The parent's account first, shared: an account deletion (which locks it for update, then
    // cascades to the proofs) waits for this decision and then removes its e-mail too, or runs
    // first and leaves nothing to decide. Same lock order as the deletion, so no deadlock.
    await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.id} = (select ${p.userId} from ${p} where ${p.id} = ${proofId})`)
      .for("share");
    const [done] = await tx
      .update(p)
      .set({
        status: decision.verified ? "verificado" : "recusado",
        refusalReason: decision.verified ? null : decision.reason,
        refusalNote: decision.verified ? null : decision.note,
        decidedAt: now,
        decidedBy: reviewer.userId,
        decidedByAdmin: reviewer.kind === "admin",
        verifiedUntil: decision.verified ? verificationValidUntil(now) : null,
      })
      .where(
        and(
          eq(p.id, proofId),
          eq(p.status, "enviado"),
          isNull(p.replacedAt),
          ne(p.userId, reviewer.userId),
          reviewer.kind === "school" ? eq(p.schoolId, reviewer.schoolId) : undefined,
        ),
      )
      .returning({ userId: p.userId, schoolId: p.schoolId, studentName: p.studentName, verifiedUntil: p.verifiedUntil });
    if (!done) return null;
    await recordProofDecision(tx, actor, proofId, decision.verified ? "verificado" : "recusado", now);
    const [parent] = await tx
      .select({ email: users.email, name: profiles.fullName, schoolName: schools.name })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .innerJoin(schools, eq(schools.id, done.schoolId))
      .where(eq(users.id, done.userId));
    if (parent) {
      await enqueueTemplate(ctx, tx, enrollmentDecisionEmail, parent.email, { userId: done.userId, aboutUserId: null }, {
        parentName: parent.name,
        studentName: done.studentName,
        schoolName: parent.schoolName,
        decidedBy: reviewer.kind === "admin" ? v.platformTeam : parent.schoolName,
        verified: decision.verified,
        verifiedUntil: done.verifiedUntil,
        reason: decision.verified ? null : [PROOF_REFUSAL_REASON_LABELS[decision.reason], decision.note].filter(Boolean).join(": "),
        profileUrl: `${ctx.config.publicOrigin}/meus-dados`,
      });
    }
    return { id: proofId, status: decision.verified ? ("verificado" as const) : ("recusado" as const), decidedAt: now, verifiedUntil: done.verifiedUntil };
  });
  if (!outcome) throw await whyNot(ctx.db, reviewer, proofId);
  return outcome;
}

type RefuseInput = { id: string; reason: ProofRefusalReason; note: string | null };
type AdminCtx = Context & { user: { id: string } };

export const schoolConfirmHandler = ({ ctx, input }: { ctx: StaffContext; input: { id: string } }) => decide(ctx, schoolReviewer(ctx), input.id, { verified: true });
export const schoolRefuseHandler = ({ ctx, input }: { ctx: StaffContext; input: RefuseInput }) =>
  decide(ctx, schoolReviewer(ctx), input.id, { verified: false, reason: input.reason, note: input.note });
export const adminConfirmHandler = ({ ctx, input }: { ctx: AdminCtx; input: { id: string } }) => decide(ctx, adminReviewer(ctx), input.id, { verified: true });
export const adminRefuseHandler = ({ ctx, input }: { ctx: AdminCtx; input: RefuseInput }) =>
  decide(ctx, adminReviewer(ctx), input.id, { verified: false, reason: input.reason, note: input.note });
