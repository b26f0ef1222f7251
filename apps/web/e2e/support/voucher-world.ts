import { schema, type Database } from "@elo/db";
import { discountedFee } from "@elo/shared";
import { eq, sql } from "drizzle-orm";
import { seedSchool, seedUser } from "./seed";

const uniq = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

/**
 * A Silver language school with approved staff and one benefit, and a parent (Ed. Básica main school,
 * complete profile, proof sent) who may claim it: the cast of the voucher-life scenarios.
 */
export async function voucherWorld(db: Database, opts: { className: string; slots?: number; holdDays?: number | null }) {
  // A neighborhood of its own and a neighborhood-scoped Silver benefit: other scenarios' parents
  // (the demo parent's marketplace, its card order and count) never see this cast's benefits.
  const neighborhood = `Vila Vida ${uniq()}`;
  const school = await seedSchool(db, `Idiomas Vida ${uniq()}`, "Idiomas", neighborhood);
  await db.insert(schema.subscriptions).values({ schoolId: school.id, planType: "silver" });
  const staffId = await seedUser(db, { profileType: "institution", fullName: "Secretária Vida", schoolId: school.id });
  await db.insert(schema.schoolMemberships).values({ userId: staffId, schoolId: school.id, status: "approved" });
  const main = await seedSchool(db, `Colégio Vida ${uniq()}`, "Ed. Básica", neighborhood);
  const parentId = await newParent(db, main.id, "Carla Mendes", "Lucas Mendes");
  const [benefit] = await db
    .insert(schema.discounts)
    .values({
      schoolId: school.id,
      userId: staffId,
      teachingStage: "iniciante",
      categoryId: school.categoryId!,
      modalityId: school.modalityId!,
      className: opts.className,
      classPeriod: "tarde",
      discountScope: "neighborhood",
      monthlyFee: 400,
      discountPercentage: 25,
      discountedFee: discountedFee(400, 25),
      discountValidity: "first_3_months",
      numberOfStudents: opts.slots ?? 3,
      holdDays: opts.holdDays ?? null,
    })
    .returning();
  return { school, main, staffId, parentId, benefit: benefit! };
}

/** A parent who may claim: complete profile and proof sent, with `schoolId` as the main school. */
export function newParent(db: Database, schoolId: string, fullName: string, studentName: string) {
  return seedUser(db, {
    profileType: "parent",
    fullName,
    phone: "11991234567",
    relationshipType: "Mãe",
    studentName,
    schoolId,
    schoolName: "Colégio",
    profileCompleted: true,
    enrollmentProofSubmitted: true,
  });
}

/** A reserved voucher of `benefit` held by `userId` (its slot taken), with the given last valid day. */
export async function seedVoucher(db: Database, benefit: { id: string; schoolId: string }, userId: string, code: string, validUntil = "2999-12-31") {
  await db.update(schema.discounts).set({ numberOfStudents: sql`${schema.discounts.numberOfStudents} - 1` }).where(eq(schema.discounts.id, benefit.id));
  await db.insert(schema.claimedDiscounts).values({ userId, discountId: benefit.id });
  const [row] = await db.insert(schema.discountTransactions).values({ userId, discountId: benefit.id, schoolId: benefit.schoolId, voucherCode: code, validUntil }).returning();
  return row!;
}

/** A voucher code no other scenario uses (NNNN-LLLL). */
export function randomVoucherCode(): string {
  const letters = Array.from({ length: 4 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("");
  return `${1000 + Math.floor(Math.random() * 9000)}-${letters}`;
}
