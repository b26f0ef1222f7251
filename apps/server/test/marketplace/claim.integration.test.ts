import { schema } from "@elo/db";
import { marketplaceMessages as m, VOUCHER_PATTERN } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDiscount } from "../../src/routers/claim/claim-discount";
import { createDiscount, createOfferingSchool, eligibleParent, marketWorld } from "../support/factories/benefits";
import { createSchool, createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";
import { countStatements } from "../support/statements";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const DAY = 24 * 60 * 60 * 1000;

async function slotsOf(discountId: string) {
  const [row] = await h.db.select({ n: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, discountId));
  return row!.n;
}
async function claimRows(userId: string, discountId: string) {
  const claimed = await h.db.select().from(schema.claimedDiscounts).where(and(eq(schema.claimedDiscounts.userId, userId), eq(schema.claimedDiscounts.discountId, discountId)));
  const transactions = await h.db.select().from(schema.discountTransactions).where(and(eq(schema.discountTransactions.userId, userId), eq(schema.discountTransactions.discountId, discountId)));
  return { claimed, transactions };
}
const unavailable = { code: "CONFLICT", toast: { title: m.unavailableTitle, description: m.unavailableDescription } };

describe("claim.create", () => {
  it("takes a slot, records the claim and a voucher NNNN-LLLL, and e-mails it to the parent", async () => {
    const { parent, school, discount } = await marketWorld(h, { discount: { slots: 3, validity: "first_3_months", className: "Inglês Kids" } });
    const result = await (await h.caller(parent.id)).claim.create({ discountId: discount.id });
    expect(result.voucherCode).toMatch(VOUCHER_PATTERN);
    expect(await slotsOf(discount.id)).toBe(2);
    const { claimed, transactions } = await claimRows(parent.id, discount.id);
    expect(claimed).toHaveLength(1);
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({ id: result.transactionId, schoolId: school.id, voucherCode: result.voucherCode, status: "reservado" });
    const [mail] = await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.to, parent.email));
    expect(mail).toMatchObject({ kind: "voucher", subject: m.mailSubject(school.name) });
    for (const text of [result.voucherCode, "Inglês Kids", "R$ 400,00", "R$ 500,00", m.officeNote, m.notEnrollmentNote, m.tuitionNote, result.transactionId]) {
      expect(mail!.text).toContain(text);
      expect(mail!.html).toContain(text);
    }
  });

  it("sets the validity end date from the validity text", async () => {
    h.clock.set(new Date("2026-03-10T15:00:00Z"));
    try {
      const { parent, discount } = await marketWorld(h, { discount: { validity: "school_year" } });
      await (await h.caller(parent.id)).claim.create({ discountId: discount.id });
      const monthly = await marketWorld(h, { discount: { validity: "first_2_months" } });
      await (await h.caller(monthly.parent.id)).claim.create({ discountId: monthly.discount.id });
      expect((await claimRows(parent.id, discount.id)).transactions[0]!.validUntil).toBe("2026-12-31");
      expect((await claimRows(monthly.parent.id, monthly.discount.id)).transactions[0]!.validUntil).toBe("2026-05-10");
    } finally {
      h.clock.set(new Date());
    }
  });

  it("refuses a second claim of the same benefit with 'Desconto já adquirido' and keeps the slots", async () => {
    const { parent, discount } = await marketWorld(h, { discount: { slots: 3 } });
    const api = await h.caller(parent.id);
    await api.claim.create({ discountId: discount.id });
    await expect(api.claim.create({ discountId: discount.id })).rejects.toMatchObject({
      code: "CONFLICT",
      toast: { title: m.duplicateTitle, description: m.duplicateDescription },
    });
    expect(await slotsOf(discount.id)).toBe(2);
    expect((await claimRows(parent.id, discount.id)).transactions).toHaveLength(1);
  });

  it("answers 'Desconto já adquirido' to the parent who took the last slot and tries again", async () => {
    const { parent, discount } = await marketWorld(h, { discount: { slots: 1 } });
    const api = await h.caller(parent.id);
    await api.claim.create({ discountId: discount.id });
    await expect(api.claim.create({ discountId: discount.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.duplicateTitle } });
    expect(await slotsOf(discount.id)).toBe(0);
  });

  it("takes the slot, the claim key and the voucher in one statement, with no transaction round trips", async () => {
    const { parent, discount } = await marketWorld(h);
    const statements = countStatements(h.db);
    try {
      await claimDiscount(h.deps, parent.id, discount.id);
      expect(statements.count()).toBe(1);
    } finally {
      statements.restore();
    }
    expect(await slotsOf(discount.id)).toBe(2);
    const rows = await claimRows(parent.id, discount.id);
    expect(rows.claimed).toHaveLength(1);
    expect(rows.transactions).toHaveLength(1);
  });

  it("refuses a sold-out benefit with 'Desconto indisponível'", async () => {
    const { parent, discount } = await marketWorld(h, { discount: { slots: 1 } });
    await (await h.caller(parent.id)).claim.create({ discountId: discount.id });
    const other = await eligibleParent(h);
    await expect((await h.caller(other.id)).claim.create({ discountId: discount.id })).rejects.toMatchObject(unavailable);
    expect(await slotsOf(discount.id)).toBe(0);
    expect(await claimRows(other.id, discount.id)).toEqual({ claimed: [], transactions: [] });
  });

  it("refuses a paused benefit, an unknown one, and one the marketplace does not show this parent", async () => {
    const { parent, school } = await marketWorld(h);
    const paused = await createDiscount(h, school.id, { status: "paused" });
    const api = await h.caller(parent.id);
    await expect(api.claim.create({ discountId: paused.id })).rejects.toMatchObject(unavailable);
    await expect(api.claim.create({ discountId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject(unavailable);

    const sameNiche = await createSchool(h, { niche: "Ed. Básica", plan: "gold" });
    const hidden = await createDiscount(h, sameNiche.id);
    await expect(api.claim.create({ discountId: hidden.id })).rejects.toMatchObject(unavailable);
    const bronze = await createOfferingSchool(h, { plan: "bronze" });
    const bronzeBenefit = await createDiscount(h, bronze.id);
    await expect(api.claim.create({ discountId: bronzeBenefit.id })).rejects.toMatchObject(unavailable);
    const far = await createOfferingSchool(h, { neighborhood: "Moema" });
    const farBenefit = await createDiscount(h, far.id, { scope: "neighborhood" });
    await expect(api.claim.create({ discountId: farBenefit.id })).rejects.toMatchObject(unavailable);
    for (const d of [paused, hidden, bronzeBenefit, farBenefit]) {
      expect(await claimRows(parent.id, d.id)).toEqual({ claimed: [], transactions: [] });
      expect(await slotsOf(d.id)).toBe(3);
    }
  });

  it("sends an incomplete parent to complete the registration ('Complete seu cadastro')", async () => {
    const { discount } = await marketWorld(h);
    const incomplete = await eligibleParent(h, { profileCompleted: false });
    await expect((await h.caller(incomplete.id)).claim.create({ discountId: discount.id })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      toast: { title: m.incompleteTitle, description: m.incompleteDescription },
      meta: { reason: "incomplete" },
    });
    const noPhone = await eligibleParent(h, { profile: { phone: null } });
    await expect((await h.caller(noPhone.id)).claim.create({ discountId: discount.id })).rejects.toMatchObject({ meta: { reason: "incomplete" } });
    const noProof = await eligibleParent(h, { proofSubmitted: false });
    await expect((await h.caller(noProof.id)).claim.create({ discountId: discount.id })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      toast: { title: m.incompleteTitle, description: m.proofMissingDescription },
      meta: { reason: "proof_missing" },
    });
    expect(await slotsOf(discount.id)).toBe(3);
  });

  it("refuses school staff and anonymous callers, and bad input", async () => {
    const { discount } = await marketWorld(h);
    const school = await createSchool(h, { niche: "Clubes" });
    const staff = await createStaff(h, school.id);
    await expect((await h.caller(staff.id)).claim.create({ discountId: discount.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await h.caller(null)).claim.create({ discountId: discount.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const parent = await eligibleParent(h);
    const api = await h.caller(parent.id);
    await expect(api.claim.create({ discountId: "nope" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.claim.create({ discountId: discount.id, userId: parent.id } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("regenerates a voucher that collides, running the claim again", async () => {
    const first = await marketWorld(h);
    const taken = await claimDiscount(h.deps, first.parent.id, first.discount.id);
    const { parent, discount } = await marketWorld(h);
    const codes = [taken.voucherCode, taken.voucherCode, "1234-ABCD"];
    const result = await claimDiscount(h.deps, parent.id, discount.id, { nextVoucher: () => codes.shift()! });
    expect(result.voucherCode).toBe("1234-ABCD");
    expect(await slotsOf(discount.id)).toBe(2);
  });

  it("gives up after 5 regenerations with 'Falha ao criar transação' and takes nothing", async () => {
    const first = await marketWorld(h);
    const taken = await claimDiscount(h.deps, first.parent.id, first.discount.id);
    const { parent, discount } = await marketWorld(h);
    let calls = 0;
    await expect(
      claimDiscount(h.deps, parent.id, discount.id, {
        nextVoucher: () => {
          calls++;
          return taken.voucherCode;
        },
      }),
    ).rejects.toMatchObject({ toast: { title: m.transactionFailed } });
    expect(calls).toBe(6);
    expect(await slotsOf(discount.id)).toBe(3);
    expect(await claimRows(parent.id, discount.id)).toEqual({ claimed: [], transactions: [] });
  });
});

describe("claim.byId", () => {
  it("returns the caller's own transaction with the confirmation data", async () => {
    const { parent, school, discount } = await marketWorld(h, { discount: { monthlyFee: 420, percentage: 30, className: "Inglês Kids" } });
    const api = await h.caller(parent.id);
    const { transactionId, voucherCode } = await api.claim.create({ discountId: discount.id });
    expect(await api.claim.byId({ transactionId })).toMatchObject({
      transactionId,
      voucherCode,
      className: "Inglês Kids",
      discountPercentage: 30,
      monthlyFee: 420,
      discountedFee: 294,
      schoolName: school.name,
      status: "reservado",
    });
  });

  it("answers another parent's transaction, and any unknown id, as not found", async () => {
    const { parent, discount } = await marketWorld(h);
    const { transactionId } = await (await h.caller(parent.id)).claim.create({ discountId: discount.id });
    const stranger = await eligibleParent(h);
    const api = await h.caller(stranger.id);
    const notFound = { code: "NOT_FOUND", toast: { title: m.transactionNotFound } };
    await expect(api.claim.byId({ transactionId })).rejects.toMatchObject(notFound);
    await expect(api.claim.byId({ transactionId: "abc" })).rejects.toMatchObject(notFound);
    await expect(api.claim.byId({ transactionId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject(notFound);
    const school = await createSchool(h, { niche: "Clubes" });
    const staff = await createStaff(h, school.id);
    await expect((await h.caller(staff.id)).claim.byId({ transactionId })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("claim.history", () => {
  it("lists only the caller's claims, one per benefit, newest first, with expiry", async () => {
    const { parent, school, discount } = await marketWorld(h, { discount: { validity: "first_month", className: "Primeira" } });
    const second = await createDiscount(h, school.id, { validity: "school_year", className: "Segunda" });
    const api = await h.caller(parent.id);
    const a = await api.claim.create({ discountId: discount.id });
    h.clock.advance(1000);
    const b = await api.claim.create({ discountId: second.id });
    const stranger = await eligibleParent(h);
    await (await h.caller(stranger.id)).claim.create({ discountId: (await createDiscount(h, school.id)).id });

    const history = await api.claim.history();
    expect(history.map((e) => e.transactionId)).toEqual([b.transactionId, a.transactionId]);
    expect(history[1]).toMatchObject({ className: "Primeira", schoolName: school.name, voucherCode: a.voucherCode, expired: false, status: "reservado", discountValidity: "first_month" });
    expect(await (await h.caller(stranger.id)).claim.history()).toHaveLength(1);

    h.clock.advance(40 * DAY);
    const later = await api.claim.history();
    expect(later.find((e) => e.transactionId === a.transactionId)).toMatchObject({ expired: true, status: "expirado" });
    expect((await api.claim.byId({ transactionId: a.transactionId })).status).toBe("expirado");
  });

  it("keeps the latest claim when a benefit has several transactions", async () => {
    const { parent, discount } = await marketWorld(h);
    const api = await h.caller(parent.id);
    const first = await api.claim.create({ discountId: discount.id });
    // A second transaction for the same benefit (e.g. a voucher reissued by the office).
    const [again] = await h.db
      .insert(schema.discountTransactions)
      .values({ userId: parent.id, discountId: discount.id, schoolId: discount.schoolId, voucherCode: "9999-ZZZZ", claimedAt: new Date(h.clock.now().getTime() + 5000), validUntil: "2099-01-01" })
      .returning();
    const history = await api.claim.history();
    const entries = history.filter((e) => e.discountId === discount.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.transactionId).toBe(again!.id);
    expect(entries[0]!.transactionId).not.toBe(first.transactionId);
  });

  it("is refused to school users", async () => {
    const school = await createSchool(h, { niche: "Clubes" });
    const staff = await createStaff(h, school.id);
    await expect((await h.caller(staff.id)).claim.history()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
