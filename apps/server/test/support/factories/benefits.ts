import { schema } from "@elo/db";
import { discountedFee, type DiscountScope, type DiscountValidity, type Niche, type PlanType } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { Harness } from "../harness";
import { createSchool, createStaff, nicheIds, type SchoolOptions } from "./schools";
import { createUser, type UserOptions } from "./users";

type Db = Pick<Harness, "db">;

export interface DiscountOptions {
  className?: string;
  percentage?: number;
  monthlyFee?: number;
  slots?: number;
  scope?: DiscountScope;
  validity?: DiscountValidity;
  status?: "active" | "paused";
  createdAt?: Date;
  userId?: string | null;
}

/** Inserts a benefit of `schoolId` (its niche taken from the school); defaults: 20% off R$ 500,00, 3 slots, whole platform. */
export async function createDiscount(h: Db, schoolId: string, opts: DiscountOptions = {}) {
  const [school] = await h.db.select().from(schema.schools).where(eq(schema.schools.id, schoolId));
  const fallback = await nicheIds(h, "Idiomas");
  const fee = opts.monthlyFee ?? 500;
  const pct = opts.percentage ?? 20;
  const [row] = await h.db
    .insert(schema.discounts)
    .values({
      schoolId,
      userId: opts.userId ?? null,
      teachingStage: "iniciante",
      categoryId: school?.categoryId ?? fallback.categoryId,
      modalityId: school?.modalityId ?? fallback.modalityId,
      className: opts.className ?? "Turma de Teste",
      classPeriod: "tarde",
      discountScope: opts.scope ?? "all_except_own",
      monthlyFee: fee,
      discountPercentage: pct,
      discountedFee: discountedFee(fee, pct),
      discountValidity: opts.validity ?? "first_3_months",
      numberOfStudents: opts.slots ?? 3,
      status: opts.status ?? "active",
      ...(opts.createdAt ? { createdAt: opts.createdAt } : {}),
    })
    .returning();
  return row!;
}

/** A school that publishes to the marketplace: a Silver/Gold plan (Gold by default) and a niche other than Ed. Básica. */
export const createOfferingSchool = (h: Db, opts: SchoolOptions = {}) => createSchool(h, { niche: "Idiomas", plan: "gold", ...opts });

export interface ParentOptions extends UserOptions {
  /** The parent's main school; a new Ed. Básica school in Pinheiros, São Paulo when absent. */
  schoolId?: string | null;
  school?: SchoolOptions;
  profileCompleted?: boolean;
  proofSubmitted?: boolean;
}

/**
 * A parent who may claim: complete profile, enrollment proof submitted, a main school. Override
 * `profileCompleted`/`proofSubmitted`/`schoolId: null` to build the refusals.
 */
export async function eligibleParent(h: Db, opts: ParentOptions = {}) {
  const schoolId = opts.schoolId === undefined ? (await createSchool(h, { niche: "Ed. Básica", ...opts.school })).id : opts.schoolId;
  const user = await createUser(h, {
    ...opts,
    profileType: "parent",
    profile: {
      fullName: "Responsável de Teste",
      phone: "11991234567",
      relationshipType: "Mãe",
      studentName: "Aluno de Teste",
      studentBirthDate: "2015-05-10",
      studentCpf: "52998224725",
      studentAddress: "Rua de Teste, 10",
      studentNeighborhood: "Pinheiros",
      studentZipCode: "05422001",
      schoolId,
      schoolName: schoolId ? "Escola principal" : null,
      profileCompleted: opts.profileCompleted ?? schoolId !== null,
      enrollmentProofSubmitted: opts.proofSubmitted ?? true,
      ...opts.profile,
    },
  });
  return { ...user, schoolId };
}

/** Adds another enrollment (school) to a parent. */
export async function addEnrollment(h: Db, userId: string, schoolId: string) {
  const [row] = await h.db.insert(schema.enrollments).values({ userId, schoolId, institutionName: "Outra escola", studentName: "Aluno de Teste" }).returning();
  return row!;
}

/** Changes a school's active plan (null: none). */
export async function setPlan(h: Db, schoolId: string, plan: PlanType | null) {
  await h.db.delete(schema.subscriptions).where(eq(schema.subscriptions.schoolId, schoolId));
  if (plan) await h.db.insert(schema.subscriptions).values({ schoolId, planType: plan });
}

/** A ready marketplace: an eligible parent and a Gold school of another niche with one benefit. */
export async function marketWorld(h: Db, opts: { discount?: DiscountOptions; niche?: Niche; plan?: PlanType } = {}) {
  const parent = await eligibleParent(h);
  const school = await createOfferingSchool(h, { niche: opts.niche ?? "Idiomas", plan: opts.plan ?? "gold" });
  const discount = await createDiscount(h, school.id, opts.discount);
  return { parent, school, discount };
}

export { createStaff };
