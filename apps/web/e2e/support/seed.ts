import { schema, type Database } from "@elo/db";
import { normalizeKey } from "@elo/shared";
import { and, eq } from "drizzle-orm";

/** A user with a profile, straight into the e2e database (scenarios sign in with `loginAs`). */
export async function seedUser(db: Database, profile: Partial<typeof schema.profiles.$inferInsert>, email = `e2e.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@teste.com.br`) {
  const [user] = await db.insert(schema.users).values({ email, passwordHash: "not-used-by-loginAs", emailConfirmedAt: new Date() }).returning({ id: schema.users.id });
  await db.insert(schema.profiles).values({ userId: user!.id, ...profile });
  return user!.id;
}

/** A school in a São Paulo neighborhood with the first modality of a niche, and no plan. */
export async function seedSchool(db: Database, name: string, niche: string, neighborhood: string) {
  const [state] = await db.select().from(schema.states).where(eq(schema.states.code, "SP"));
  const [city] = await db.select().from(schema.cities).where(and(eq(schema.cities.stateId, state!.id), eq(schema.cities.name, "São Paulo")));
  await db.insert(schema.neighborhoods).values({ name: neighborhood, cityId: city!.id }).onConflictDoNothing();
  const [hood] = await db.select().from(schema.neighborhoods).where(and(eq(schema.neighborhoods.cityId, city!.id), eq(schema.neighborhoods.name, neighborhood)));
  const [category] = await db.select().from(schema.categories).where(eq(schema.categories.name, niche));
  const [modality] = await db.select().from(schema.modalities).where(eq(schema.modalities.categoryId, category!.id)).limit(1);
  const [school] = await db
    .insert(schema.schools)
    .values({ name, nameKey: normalizeKey(name), uf: "SP", city: "São Paulo", neighborhood, stateId: state!.id, cityId: city!.id, neighborhoodId: hood!.id, categoryId: category!.id, modalityId: modality!.id, origin: "admin" })
    .returning();
  return school!;
}

/** An active Silver (or given) plan for a school. */
export async function seedPlan(db: Database, schoolId: string, planType: "silver" | "gold" | "bronze" = "silver") {
  await db.insert(schema.subscriptions).values({ schoolId, planType });
}

/**
 * An active benefit of a school, in the school's own niche. Its scope is the school's neighborhood
 * by default, so it reaches only parents whose main school is there (not the demo parent's
 * marketplace, which other scenarios count, unless the school is in Pinheiros).
 */
export async function seedBenefit(db: Database, school: { id: string; categoryId: number | null; modalityId: number | null }, className: string, { slots = 10, scope = "neighborhood" as "neighborhood" | "all_except_own" } = {}) {
  const [benefit] = await db
    .insert(schema.discounts)
    .values({ schoolId: school.id, teachingStage: "iniciante", categoryId: school.categoryId!, modalityId: school.modalityId!, className, classPeriod: "tarde", discountScope: scope, monthlyFee: 400, discountPercentage: 25, discountedFee: 300, discountValidity: "first_3_months", numberOfStudents: slots })
    .returning();
  return benefit!;
}

const letters = () => Array.from({ length: 4 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("");

/** A voucher of `userId` for a benefit, claimed at `claimedAt` (and its claim row when a user holds it). */
export async function seedVoucher(db: Database, benefit: { id: string; schoolId: string }, userId: string | null, claimedAt = new Date(), status: "reservado" | "utilizado" = "reservado") {
  const code = `${1000 + Math.floor(Math.random() * 9000)}-${letters()}`;
  const [voucher] = await db
    .insert(schema.discountTransactions)
    .values({ userId, discountId: benefit.id, schoolId: benefit.schoolId, voucherCode: code, status, claimedAt, validUntil: "2099-12-31", redeemedAt: status === "utilizado" ? claimedAt : null })
    .returning();
  if (userId) await db.insert(schema.claimedDiscounts).values({ userId, discountId: benefit.id }).onConflictDoNothing();
  return voucher!;
}

/** A parent whose profile is complete and whose proof was sent (one who may claim), of Colégio Horizonte or `mainSchool`. */
export async function seedCompleteParent(db: Database, fullName: string, mainSchool?: { id: string; name: string }) {
  const [horizonte] = mainSchool ? [mainSchool] : await db.select().from(schema.schools).where(eq(schema.schools.name, "Colégio Horizonte"));
  return seedUser(db, {
    profileType: "parent", fullName, phone: "11991234567", relationshipType: "Mãe", state: "SP", city: "São Paulo", neighborhood: "Pinheiros",
    studentName: `Aluno de ${fullName}`, studentBirthDate: "2016-03-14", studentCpf: "52998224725", studentAddress: "Rua dos Pinheiros, 500", studentNeighborhood: "Pinheiros", studentZipCode: "05422001",
    schoolId: horizonte!.id, schoolName: horizonte!.name, profileCompleted: true, enrollmentProofSubmitted: true,
  });
}

/** An approved staff member of a school. */
export async function seedStaff(db: Database, school: { id: string; name: string }, fullName: string) {
  const staff = await seedUser(db, { profileType: "institution", fullName, schoolId: school.id, schoolName: school.name });
  await db.insert(schema.schoolMemberships).values({ userId: staff, schoolId: school.id, status: "approved", decidedAt: new Date() });
  return staff;
}

/** Another enrollment of a parent, at `school`. */
export async function addEnrollment(db: Database, userId: string, school: { id: string; name: string }) {
  await db.insert(schema.enrollments).values({ userId, schoolId: school.id, institutionName: school.name, studentName: "Aluno matriculado" });
}
