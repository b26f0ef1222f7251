import { schema, type Database } from "@elo/db";
import { LIMITS, profileMessages, type enrollmentInput, type saveEnrollmentSchoolInput } from "@elo/shared";
import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { SessionUser } from "../../auth/session";
import type { Context } from "../../trpc/init";
import { AppError } from "../../trpc/errors";
import { logoAddress } from "../../storage/logo";
import { withdrawProofsOfOtherSchool } from "../verification/record-proof";
import { schoolSummaryColumns } from "./get.handler";

type Ctx = Context & { user: SessionUser };
const { enrollments, schools, profiles } = schema;

/** The parent's other enrollments, newest first (/add-escola). */
export async function listEnrollmentsHandler({ ctx }: { ctx: Ctx }) {
  const rows = await ctx.db
    .select({
      id: enrollments.id,
      schoolId: enrollments.schoolId,
      institutionName: enrollments.institutionName,
      enrollmentNumber: enrollments.enrollmentNumber,
      period: enrollments.period,
      classNumber: enrollments.classNumber,
      startDate: enrollments.startDate,
      endDate: enrollments.endDate,
      notes: enrollments.notes,
      status: enrollments.status,
      createdAt: enrollments.createdAt,
      school: schoolSummaryColumns,
    })
    .from(enrollments)
    .leftJoin(schools, eq(schools.id, enrollments.schoolId))
    .where(eq(enrollments.userId, ctx.user.id))
    .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
    .limit(LIMITS.otherEnrollmentsMax);
  return rows.map((r) => ({ ...r, school: r.school?.id ? { ...r.school, logoUrl: logoAddress(ctx.storage, r.school.logoUrl) } : null }));
}

async function schoolOrFail(db: Database, schoolId: string) {
  const [school] = await db.select({ id: schools.id, name: schools.name }).from(schools).where(eq(schools.id, schoolId));
  if (!school) throw new AppError("NOT_FOUND", profileMessages.schoolNotFound);
  return school;
}

/** Runs `fn` with the parent's profile row locked, so concurrent adds cannot pass the limit of 3. */
async function withLockedParent<T>(ctx: Ctx, fn: (tx: Database, studentName: string | null) => Promise<T>) {
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [me] = await tx.select({ studentName: profiles.studentName }).from(profiles).where(eq(profiles.userId, ctx.user.id)).for("update");
    return fn(tx, me?.studentName ?? null);
  });
}

async function ensureRoom(tx: Database, userId: string) {
  const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(enrollments).where(eq(enrollments.userId, userId));
  if (n >= LIMITS.otherEnrollmentsMax) throw new AppError("CONFLICT", profileMessages.enrollmentLimit);
}

async function ownEnrollment(tx: Database, userId: string, id: string) {
  const [row] = await tx.select({ id: enrollments.id }).from(enrollments).where(and(eq(enrollments.id, id), eq(enrollments.userId, userId)));
  if (!row) throw new AppError("NOT_FOUND", profileMessages.enrollmentNotFound);
  return row;
}

/** 'Salvar escola' on an other-enrollment tab of /meus-dados. */
export async function saveEnrollmentSchoolHandler({ ctx, input }: { ctx: Ctx; input: z.output<typeof saveEnrollmentSchoolInput> }) {
  if (!input.schoolId) throw new AppError("BAD_REQUEST", profileMessages.schoolNotSelected);
  const schoolId = input.schoolId;
  return withLockedParent(ctx, async (tx, studentName) => {
    const school = await schoolOrFail(tx, schoolId);
    const now = ctx.clock.now();
    if (input.id) {
      await ownEnrollment(tx, ctx.user.id, input.id);
      await tx.update(enrollments).set({ schoolId: school.id, institutionName: school.name, updatedAt: now }).where(eq(enrollments.id, input.id));
      await withdrawProofsOfOtherSchool(ctx, tx, ctx.user.id, input.id, school.id, now);
      return { id: input.id, created: false };
    }
    await ensureRoom(tx, ctx.user.id);
    const [row] = await tx
      .insert(enrollments)
      .values({ userId: ctx.user.id, schoolId: school.id, institutionName: school.name, studentName, status: "active", createdAt: now, updatedAt: now })
      .returning({ id: enrollments.id });
    return { id: row!.id, created: true };
  });
}

/** The /add-escola form: adds (at most 3) or edits one of the parent's own enrollments. */
export async function saveEnrollmentHandler({ ctx, input }: { ctx: Ctx; input: z.output<typeof enrollmentInput> }) {
  if (!input.schoolId) throw new AppError("BAD_REQUEST", profileMessages.enrollmentSchoolRequired);
  const schoolId = input.schoolId;
  return withLockedParent(ctx, async (tx, studentName) => {
    const school = await schoolOrFail(tx, schoolId);
    const now = ctx.clock.now();
    const details = {
      schoolId: school.id,
      institutionName: school.name,
      enrollmentNumber: input.enrollmentNumber,
      period: input.period,
      classNumber: input.classNumber,
      startDate: input.startDate,
      endDate: input.endDate,
      notes: input.notes,
      updatedAt: now,
    };
    if (input.id) {
      await ownEnrollment(tx, ctx.user.id, input.id);
      await tx.update(enrollments).set(details).where(eq(enrollments.id, input.id));
      await withdrawProofsOfOtherSchool(ctx, tx, ctx.user.id, input.id, school.id, now);
      return { id: input.id, created: false };
    }
    await ensureRoom(tx, ctx.user.id);
    const [row] = await tx
      .insert(enrollments)
      .values({ ...details, userId: ctx.user.id, studentName, status: "active", createdAt: now })
      .returning({ id: enrollments.id });
    return { id: row!.id, created: true };
  });
}

/** Removes one of the parent's own enrollments and its proof file. */
export async function removeEnrollmentHandler({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const [row] = await ctx.db
    .delete(enrollments)
    .where(and(eq(enrollments.id, input.id), eq(enrollments.userId, ctx.user.id)))
    .returning({ proofUrl: enrollments.proofUrl });
  if (!row) throw new AppError("NOT_FOUND", profileMessages.enrollmentNotFound);
  if (row.proofUrl) await ctx.storage.remove("enrollment_proofs", row.proofUrl).catch(() => {});
  return { ok: true as const };
}
