import { schema, type Database } from "@elo/db";
import { profileMessages, type parentProfileInput, type saveMainSchoolInput } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { SessionUser } from "../../auth/session";
import type { Context } from "../../trpc/init";
import { AppError, fieldError } from "../../trpc/errors";
import { withdrawProofsOfOtherSchool } from "../verification/record-proof";
import { isProfileComplete } from "./completion";
import { notifyProfileChanged } from "./events";

type Ctx = Context & { user: SessionUser };
const { profiles, schools, relationshipTypes } = schema;

/** Recomputes profile_completed from the saved row (inside the caller's transaction). */
export async function refreshCompletion(db: Database, userId: string) {
  const [row] = await db
    .select({
      fullName: profiles.fullName,
      phone: profiles.phone,
      relationshipType: profiles.relationshipType,
      studentName: profiles.studentName,
      studentBirthDate: profiles.studentBirthDate,
      studentCpf: profiles.studentCpf,
      studentAddress: profiles.studentAddress,
      studentNeighborhood: profiles.studentNeighborhood,
      studentZipCode: profiles.studentZipCode,
      schoolName: profiles.schoolName,
      schoolId: profiles.schoolId,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .for("update");
  if (!row) return false;
  const completed = isProfileComplete(row);
  await db.update(profiles).set({ profileCompleted: completed }).where(eq(profiles.userId, userId));
  return completed;
}

/** Saves the guardian and student blocks (the name is read-only); all or nothing. */
export async function updateProfileHandler({ ctx, input }: { ctx: Ctx; input: z.output<typeof parentProfileInput> }) {
  if (input.relationshipType !== null) {
    // The form offers only the reference list; a script or old client must not store free text.
    const [known] = await ctx.db.select({ id: relationshipTypes.id }).from(relationshipTypes).where(eq(relationshipTypes.name, input.relationshipType));
    if (!known) throw fieldError("relationshipType", profileMessages.relationshipInvalid);
  }
  const completed = await ctx.db.transaction(async (tx) => {
    await tx
      .update(profiles)
      .set({
        phone: input.phone,
        relationshipType: input.relationshipType,
        studentName: input.studentName,
        studentBirthDate: input.studentBirthDate,
        studentCpf: input.studentCpf,
        studentAddress: input.studentAddress,
        studentAddressComplement: input.studentAddressComplement,
        studentNeighborhood: input.studentNeighborhood,
        studentZipCode: input.studentZipCode,
        publicSchoolPaidActivity: input.publicSchoolPaidActivity,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(profiles.userId, ctx.user.id));
    return refreshCompletion(tx as unknown as Database, ctx.user.id);
  });
  await notifyProfileChanged(ctx.db, ctx.user.id);
  return { profileCompleted: completed };
}

/** 'Salvar escola' on the main tab: links the school (name copied) and applies the completion rule. */
export async function saveMainSchoolHandler({ ctx, input }: { ctx: Ctx; input: z.output<typeof saveMainSchoolInput> }) {
  if (!input.schoolId) throw new AppError("BAD_REQUEST", profileMessages.schoolNotSelected);
  return linkMainSchool(ctx, input.schoolId);
}

/** Links `schoolId` as the parent's main school and recomputes completion. */
export async function linkMainSchool(ctx: Ctx, schoolId: string) {
  const result = await ctx.db.transaction(async (tx) => {
    const [school] = await tx.select({ id: schools.id, name: schools.name }).from(schools).where(eq(schools.id, schoolId));
    if (!school) throw new AppError("NOT_FOUND", profileMessages.schoolNotFound);
    await tx.update(profiles).set({ schoolId: school.id, schoolName: school.name, updatedAt: ctx.clock.now() }).where(eq(profiles.userId, ctx.user.id));
    await withdrawProofsOfOtherSchool(ctx, tx as unknown as Database, ctx.user.id, null, school.id, ctx.clock.now());
    const profileCompleted = await refreshCompletion(tx as unknown as Database, ctx.user.id);
    return { schoolId: school.id, schoolName: school.name, profileCompleted };
  });
  await notifyProfileChanged(ctx.db, ctx.user.id);
  return result;
}
