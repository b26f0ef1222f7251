import { schema } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { asc, eq } from "drizzle-orm";
import { logoAddress } from "../../storage/logo";
import { signedUrlOf } from "../../storage/storage";
import type { Context } from "../../trpc/init";
import type { SessionUser } from "../../auth/session";
import { saoPauloDay } from "../../lib/calendar";
import { verificationsOf } from "../verification/parent-state";

type Ctx = Context & { user: SessionUser };
const { profiles, schools, enrollments } = schema;

/** The columns of a school that a parent's pickers need to show and re-select it. */
export const schoolSummaryColumns = {
  id: schools.id,
  name: schools.name,
  uf: schools.uf,
  city: schools.city,
  neighborhood: schools.neighborhood,
  stateId: schools.stateId,
  cityId: schools.cityId,
  neighborhoodId: schools.neighborhoodId,
  logoUrl: schools.logoUrl,
};

/** The signed-in parent's profile, linked school and first 3 other enrollments (by creation). */
export async function getProfileHandler({ ctx }: { ctx: Ctx }) {
  const [row] = await ctx.db
    .select({
      fullName: profiles.fullName,
      phone: profiles.phone,
      relationshipType: profiles.relationshipType,
      studentName: profiles.studentName,
      studentBirthDate: profiles.studentBirthDate,
      studentCpf: profiles.studentCpf,
      studentAddress: profiles.studentAddress,
      studentAddressComplement: profiles.studentAddressComplement,
      studentNeighborhood: profiles.studentNeighborhood,
      studentZipCode: profiles.studentZipCode,
      schoolName: profiles.schoolName,
      schoolId: profiles.schoolId,
      publicSchoolPaidActivity: profiles.publicSchoolPaidActivity,
      avatarUrl: profiles.avatarUrl,
      enrollmentProofUrl: profiles.enrollmentProofUrl,
      enrollmentProofSubmitted: profiles.enrollmentProofSubmitted,
      profileCompleted: profiles.profileCompleted,
      stateId: profiles.stateId,
      cityId: profiles.cityId,
      neighborhoodId: profiles.neighborhoodId,
    })
    .from(profiles)
    .where(eq(profiles.userId, ctx.user.id));
  if (!row) return null;

  const [school] = row.schoolId ? await ctx.db.select(schoolSummaryColumns).from(schools).where(eq(schools.id, row.schoolId)) : [];
  const others = await ctx.db
    .select({
      id: enrollments.id,
      schoolId: enrollments.schoolId,
      institutionName: enrollments.institutionName,
      proofUrl: enrollments.proofUrl,
      createdAt: enrollments.createdAt,
      school: schoolSummaryColumns,
    })
    .from(enrollments)
    .leftJoin(schools, eq(schools.id, enrollments.schoolId))
    .where(eq(enrollments.userId, ctx.user.id))
    .orderBy(asc(enrollments.createdAt), asc(enrollments.id))
    .limit(LIMITS.otherEnrollmentsMax);

  const verification = await verificationsOf(ctx.db, ctx.user.id, saoPauloDay(ctx.clock.now()));
  const { avatarUrl, enrollmentProofUrl, ...profile } = row;
  return {
    email: ctx.user.email,
    ...profile,
    avatarUrl: await signedUrlOf(ctx.storage, "avatars", avatarUrl),
    enrollmentProofUrl: await signedUrlOf(ctx.storage, "enrollment_proofs", enrollmentProofUrl),
    /** The main enrollment's proof: 'enviado', 'verificado' or 'recusado' (issue 21). */
    verification: verification(null),
    school: school ? { ...school, logoUrl: logoAddress(ctx.storage, school.logoUrl) } : null,
    enrollments: await Promise.all(
      others.map(async (e) => ({
        id: e.id,
        schoolId: e.schoolId,
        institutionName: e.institutionName,
        createdAt: e.createdAt,
        proofUrl: await signedUrlOf(ctx.storage, "enrollment_proofs", e.proofUrl),
        verification: verification(e.id),
        school: e.school?.id ? { ...e.school, logoUrl: logoAddress(ctx.storage, e.school.logoUrl) } : null,
      })),
    ),
  };
}
