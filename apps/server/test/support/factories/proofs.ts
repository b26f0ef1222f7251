import { schema } from "@elo/db";
import type { ProofStatus } from "@elo/shared";
import { and, eq, isNull } from "drizzle-orm";
import type { Harness } from "../harness";

export interface ProofOptions {
  /** Null (default): the main enrollment. */
  enrollmentId?: string | null;
  status?: ProofStatus;
  submittedAt?: Date;
  decidedAt?: Date | null;
  decidedBy?: string | null;
  verifiedUntil?: string | null;
  studentName?: string;
  declaredClass?: string | null;
}

/**
 * A live enrollment proof of `userId` naming `schoolId`, straight into the table (the upload route
 * is tested on its own); the enrollment's previous live proof is marked replaced, as an upload does.
 */
export async function insertProof(h: Pick<Harness, "db" | "clock">, userId: string, schoolId: string, opts: ProofOptions = {}) {
  const status = opts.status ?? "enviado";
  const decided = status !== "enviado";
  const { enrollmentProofs: p } = schema;
  await h.db
    .update(p)
    .set({ replacedAt: h.clock.now() })
    .where(and(eq(p.userId, userId), opts.enrollmentId ? eq(p.enrollmentId, opts.enrollmentId) : isNull(p.enrollmentId), isNull(p.replacedAt)));
  const [row] = await h.db
    .insert(schema.enrollmentProofs)
    .values({
      userId,
      schoolId,
      enrollmentId: opts.enrollmentId ?? null,
      fileKey: `${userId}/proof-${Math.random().toString(36).slice(2, 10)}.pdf`,
      studentName: opts.studentName ?? "Aluno de Teste",
      declaredClass: opts.declaredClass === undefined ? "5º ano B" : opts.declaredClass,
      status,
      submittedAt: opts.submittedAt ?? h.clock.now(),
      decidedAt: decided ? (opts.decidedAt ?? h.clock.now()) : null,
      decidedBy: decided ? (opts.decidedBy ?? null) : null,
      verifiedUntil: status === "verificado" ? (opts.verifiedUntil ?? `${new Date(h.clock.now()).getUTCFullYear() + 1}-02-28`) : null,
    })
    .returning();
  return row!;
}
