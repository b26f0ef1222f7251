import { schema } from "@elo/db";
import { marketplaceMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saoPauloDay } from "../../src/lib/calendar";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";

/** Issue 21, part 3 (and 4's lapse): 'Exigir matrícula verificada' decided inside the claim statement. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** A parent of a new school, and a Gold school of another niche with one benefit (requiring a verified enrollment unless told). */
async function world(opts: { requires?: boolean } = {}) {
  const mainSchool = await createSchool(h, { name: `Colégio Horizonte ${Math.random().toString(36).slice(2, 7)}` });
  const parent = await eligibleParent(h, { schoolId: mainSchool.id });
  const offering = await createOfferingSchool(h);
  const discount = await createDiscount(h, offering.id, { slots: 5 });
  if (opts.requires ?? true) await h.db.update(schema.discounts).set({ requiresVerifiedEnrollment: true }).where(eq(schema.discounts.id, discount.id));
  return { mainSchool, parent, offering, discount };
}

const slots = async (id: string) => (await h.db.select({ n: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, id)))[0]!.n;
const claim = async (userId: string, discountId: string) => (await h.caller(userId)).claim.create({ discountId });
const refusedForVerification = { code: "PRECONDITION_FAILED", message: expect.stringContaining(marketplaceMessages.verificationRequiredTitle) };
const nextYear = () => Number(saoPauloDay(h.clock.now()).slice(0, 4)) + 1;

describe("'Exigir matrícula verificada'", () => {
  it("off (the default) keeps the spec's rule: a parent without any verification claims", async () => {
    const { parent, discount } = await world({ requires: false });
    await expect(claim(parent.id, discount.id)).resolves.toMatchObject({ voucherCode: expect.any(String) });
  });

  it("on: no proof, a pending proof and a refused proof are all refused with the reason, the slot untouched", async () => {
    const { mainSchool, parent, discount } = await world();
    await expect(claim(parent.id, discount.id)).rejects.toMatchObject(refusedForVerification);
    const proof = await insertProof(h, parent.id, mainSchool.id);
    await expect(claim(parent.id, discount.id)).rejects.toMatchObject(refusedForVerification);
    await h.db.update(schema.enrollmentProofs).set({ status: "recusado", refusalReason: "ilegivel", decidedAt: h.clock.now() }).where(eq(schema.enrollmentProofs.id, proof.id));
    await expect(claim(parent.id, discount.id)).rejects.toMatchObject(refusedForVerification);
    expect(await slots(discount.id)).toBe(5);
    expect(await h.db.select().from(schema.claimedDiscounts).where(eq(schema.claimedDiscounts.userId, parent.id))).toEqual([]);
  });

  it("on: a main enrollment verified by its school claims; the desk shows who verified it and when", async () => {
    const { mainSchool, parent, offering, discount } = await world();
    const staff = await createStaff(h, mainSchool.id);
    const proof = await insertProof(h, parent.id, mainSchool.id);
    await (await h.caller(staff.id)).school.verifications.confirm({ id: proof.id });
    const list = await (await h.caller(parent.id)).marketplace.list({});
    expect(list.viewer).toMatchObject({ kind: "parent", enrollmentVerified: true });
    expect(list.items.find((i) => i.discountId === discount.id)).toMatchObject({ requiresVerifiedEnrollment: true });

    const { voucherCode } = await claim(parent.id, discount.id);
    expect(await slots(discount.id)).toBe(4);
    const desk = await h.caller((await createStaff(h, offering.id)).id);
    const voucher = await desk.school.vouchers.lookup({ code: voucherCode });
    expect(voucher.enrollmentVerification).toMatchObject({ schoolName: mainSchool.name, byAdmin: false });
    expect(saoPauloDay(new Date(voucher.enrollmentVerification!.decidedAt))).toBe(saoPauloDay(h.clock.now()));
  });

  it("on: a verification of another school (the parent changed main school) does not count", async () => {
    const { mainSchool, parent, discount } = await world();
    await insertProof(h, parent.id, mainSchool.id, { status: "verificado" });
    const other = await createSchool(h);
    await h.db.update(schema.profiles).set({ schoolId: other.id }).where(eq(schema.profiles.userId, parent.id));
    await expect(claim(parent.id, discount.id)).rejects.toMatchObject(refusedForVerification);
  });

  it("an other enrollment's verification does not count: only the main enrollment opens these benefits", async () => {
    const { parent, discount } = await world();
    const otherSchool = await createSchool(h);
    const [enrollment] = await h.db.insert(schema.enrollments).values({ userId: parent.id, schoolId: otherSchool.id, institutionName: otherSchool.name }).returning();
    await insertProof(h, parent.id, otherSchool.id, { enrollmentId: enrollment!.id, status: "verificado" });
    await expect(claim(parent.id, discount.id)).rejects.toMatchObject(refusedForVerification);
  });
});

describe("every school year (part 4)", () => {
  it("a verification holds through the end of February of the next year, then blocks a benefit that requires one; issued vouchers stay valid", async () => {
    const { mainSchool, parent, offering, discount } = await world();
    const later = await createDiscount(h, offering.id, { className: "Turma do ano que vem", slots: 5 });
    await h.db.update(schema.discounts).set({ requiresVerifiedEnrollment: true }).where(eq(schema.discounts.id, later.id));
    const staff = await createStaff(h, mainSchool.id);
    const proof = await insertProof(h, parent.id, mainSchool.id);
    const decided = await (await h.caller(staff.id)).school.verifications.confirm({ id: proof.id });
    expect(decided.verifiedUntil).toBe(`${nextYear()}-02-${nextYear() % 4 === 0 ? 29 : 28}`);
    const { voucherCode } = await claim(parent.id, discount.id);

    const start = h.clock.now();
    try {
      // The last day still holds (noon in São Paulo)...
      h.clock.set(new Date(`${decided.verifiedUntil}T12:00:00-03:00`));
      expect((await (await h.caller(parent.id)).marketplace.list({})).viewer).toMatchObject({ enrollmentVerified: true });
      // ...the next morning it has lapsed.
      h.clock.set(new Date(`${decided.verifiedUntil}T23:59:59-03:00`));
      h.clock.advance(2000);
      await expect(claim(parent.id, later.id)).rejects.toMatchObject(refusedForVerification);
      expect((await (await h.caller(parent.id)).profile.get())!.verification).toMatchObject({ status: "verificado", lapsedOn: decided.verifiedUntil, validUntil: null });
      // The voucher issued before is untouched.
      const [voucher] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.voucherCode, voucherCode));
      expect(voucher!.status).toBe("reservado");

      // A new proof, verified, opens the benefit again.
      const renewal = await insertProof(h, parent.id, mainSchool.id);
      await (await h.caller(staff.id)).school.verifications.confirm({ id: renewal.id });
      await expect(claim(parent.id, later.id)).resolves.toMatchObject({ voucherCode: expect.any(String) });
    } finally {
      h.clock.set(start);
    }
  });
});

describe("the benefit form", () => {
  it("creates and updates a benefit with 'Exigir matrícula verificada'; the list shows it", async () => {
    const school = await createOfferingSchool(h);
    const staff = await h.caller((await createStaff(h, school.id)).id);
    const values = {
      teachingStage: "iniciante" as const,
      categoryId: school.categoryId!,
      modalityId: school.modalityId!,
      className: "Turma Verificada",
      classPeriod: "tarde" as const,
      discountScope: "all_except_own" as const,
      monthlyFee: 300,
      discountPercentage: 10,
      discountValidity: "first_month" as const,
      numberOfStudents: 3,
    };
    const created = await staff.school.benefits.create({ ...values, requiresVerifiedEnrollment: true });
    expect((await staff.school.benefits.list()).find((b) => b.id === created.id)).toMatchObject({ requiresVerifiedEnrollment: true });
    await staff.school.benefits.update({ id: created.id, values: { ...values, requiresVerifiedEnrollment: false } });
    expect((await staff.school.benefits.list()).find((b) => b.id === created.id)).toMatchObject({ requiresVerifiedEnrollment: false });
    // Absent, it stays off.
    const plain = await staff.school.benefits.create(values);
    expect((await staff.school.benefits.list()).find((b) => b.id === plain.id)).toMatchObject({ requiresVerifiedEnrollment: false });
  });
});
