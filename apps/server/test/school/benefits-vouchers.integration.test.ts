import { schema } from "@elo/db";
import { discountedFee, schoolMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { createSchool, createStaff, nicheIds } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { createDiscount, eligibleParent } from "../support/factories/benefits";
import { insertVoucher } from "../support/factories/vouchers";
import { onRealPostgres } from "../support/test-db";
import { expireDueVouchers } from "../../src/vouchers/expire";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ poolMax: 12 });
});
afterAll(() => h.close());

async function benefitForm(overrides: Record<string, unknown> = {}) {
  return {
    teachingStage: "iniciante" as const,
    ...(await nicheIds(h, "Idiomas")),
    className: "Inglês Teens",
    classPeriod: "tarde" as const,
    discountScope: "all_except_own" as const,
    monthlyFee: 389.9,
    discountPercentage: 12.5,
    discountValidity: "first_2_months" as const,
    numberOfStudents: 5,
    ...overrides,
  };
}

describe("benefits", () => {
  it("computes the discounted fee on the server and never accepts one from the client", async () => {
    const school = await createSchool(h, { plan: "silver" });
    const api = await h.caller((await createStaff(h, school.id)).id);
    const form = await benefitForm();
    await expect(api.school.benefits.create({ ...form, discountedFee: 1 } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const created = await api.school.benefits.create(form);
    expect(created.discountedFee).toBe(discountedFee(389.9, 12.5));
    expect(created.discountedFee).toBe(341.16);
    const updated = await api.school.benefits.update({ id: created.id, values: { ...form, monthlyFee: 1000, discountPercentage: 33.33 } });
    expect(updated.discountedFee).toBe(666.7);
    const [row] = await api.school.benefits.list();
    expect(row).toMatchObject({ monthlyFee: 1000, discountPercentage: 33.33, discountedFee: 666.7, categoryName: "Idiomas", voucherCount: 0 });
  });

  it("refuses missing or out-of-range fields and a modality of another category", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const api = await h.caller((await createStaff(h, school.id)).id);
    for (const bad of [{ className: " " }, { discountPercentage: 100.01 }, { discountPercentage: 1.001 }, { numberOfStudents: 0 }, { monthlyFee: 0 }]) {
      await expect(api.school.benefits.create(await benefitForm(bad)), JSON.stringify(bad)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    const other = await nicheIds(h, "Clubes");
    await expect(api.school.benefits.create(await benefitForm({ modalityId: other.modalityId }))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await api.school.benefits.list()).toEqual([]);
  });

  it("needs an active Silver or Gold plan to publish", async () => {
    for (const plan of [null, "bronze"] as const) {
      const school = await createSchool(h, { plan });
      const api = await h.caller((await createStaff(h, school.id)).id);
      await expect(api.school.benefits.create(await benefitForm())).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(schoolMessages.planRequired) });
      await api.plan.choose({ plan: "silver" });
      await expect(api.school.benefits.create(await benefitForm())).resolves.toMatchObject({ id: expect.any(String) });
    }
  });

  it("pauses and reactivates; the counters follow", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const api = await h.caller((await createStaff(h, school.id)).id);
    const a = await api.school.benefits.create(await benefitForm());
    await api.school.benefits.create(await benefitForm({ className: "Outra" }));
    expect((await api.school.home()).counters).toMatchObject({ paused: 0, available: 2 });
    expect(await api.school.benefits.pause({ id: a.id })).toEqual({ id: a.id, status: "paused" });
    expect((await api.school.home()).counters).toMatchObject({ paused: 1, available: 1 });
    await api.school.benefits.reactivate({ id: a.id });
    expect((await api.school.home()).counters).toMatchObject({ paused: 0, available: 2 });
  });

  it("pausing hides the benefit from the marketplace and reactivating shows it again", async () => {
    const school = await createSchool(h, { plan: "gold", niche: "Idiomas" });
    const api = await h.caller((await createStaff(h, school.id)).id);
    const parent = await h.caller((await eligibleParent(h)).id);
    const benefit = await api.school.benefits.create(await benefitForm({ className: "Visível ou não" }));
    const visible = async () => (await parent.marketplace.list()).items.some((i) => i.discountId === benefit.id);
    expect(await visible()).toBe(true);
    await api.school.benefits.pause({ id: benefit.id });
    expect(await visible()).toBe(false);
    await api.school.benefits.reactivate({ id: benefit.id });
    expect(await visible()).toBe(true);
  });

  it("deletes a benefit without vouchers, but one with vouchers can only be paused", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const api = await h.caller((await createStaff(h, school.id)).id);
    const free = await api.school.benefits.create(await benefitForm());
    await api.school.benefits.delete({ id: free.id });
    expect(await api.school.benefits.list()).toEqual([]);
    const used = await createDiscount(h, school.id, { className: `Turma ${Math.random().toString(36).slice(2, 7)}` });
    await insertVoucher(h, used, (await createUser(h)).id);
    await expect(api.school.benefits.delete({ id: used.id })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining(schoolMessages.deleteBlockedByVouchers) });
    await api.school.benefits.pause({ id: used.id });
    expect((await api.school.benefits.list()).map((b) => [b.id, b.status])).toEqual([[used.id, "paused"]]);
  });

  it("freezes fee, percentage and validity once vouchers exist, but still lets slots and names change", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const api = await h.caller((await createStaff(h, school.id)).id);
    const form = await benefitForm({ className: "Inglês Kids" });
    const created = await api.school.benefits.create(form);
    const [stored] = await h.db.select().from(schema.discounts).where(eq(schema.discounts.id, created.id));
    await insertVoucher(h, stored!, (await createUser(h)).id);

    for (const change of [{ monthlyFee: 400 }, { discountPercentage: 15 }, { discountValidity: "school_year" as const }]) {
      await expect(api.school.benefits.update({ id: created.id, values: { ...form, ...change } }), JSON.stringify(change)).rejects.toMatchObject({
        code: "CONFLICT",
        toast: { title: schoolMessages.discountUpdateError, description: schoolMessages.termsLockedByVouchers },
      });
    }
    const [unchanged] = await api.school.benefits.list();
    expect(unchanged).toMatchObject({ monthlyFee: 389.9, discountPercentage: 12.5, discountedFee: 341.16, discountValidity: "first_2_months", className: "Inglês Kids" });

    const edited = await api.school.benefits.update({ id: created.id, values: { ...form, monthlyFee: 389.9, numberOfStudents: 9, className: "Inglês Kids B", classPeriod: "manha" } });
    expect(edited.discountedFee).toBe(341.16);
    const [after] = await api.school.benefits.list();
    expect(after).toMatchObject({ numberOfStudents: 9, className: "Inglês Kids B", classPeriod: "manha", monthlyFee: 389.9, voucherCount: 1 });
  });
});

describe("counters and reserved details", () => {
  it("computes the conversion rate as used ÷ reserved and lists the reserved benefits", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const staff = await createStaff(h, school.id);
    const api = await h.caller(staff.id);
    expect((await api.school.home()).counters).toMatchObject({ reserved: 0, conversionRate: 0 });
    const benefit = await createDiscount(h, school.id, { className: `Turma ${Math.random().toString(36).slice(2, 7)}` });
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const parent = await createUser(h, { profile: { studentName: `Aluno ${i}` } });
      codes.push((await insertVoucher(h, benefit, parent.id)).voucherCode);
    }
    await api.school.vouchers.confirm({ code: codes[0]! });
    const home = await api.school.home();
    expect(home.counters).toMatchObject({ reserved: 3, used: 1, conversionRate: 33.3 });
    await api.school.vouchers.confirm({ code: codes[1]!.toLowerCase().replace("-", "") });
    expect((await api.school.home()).counters.conversionRate).toBe(66.7);
    const details = await api.school.reservedDetails();
    expect(details).toHaveLength(3);
    expect(details[0]).toMatchObject({ className: benefit.className, teachingStage: "iniciante", classPeriod: "tarde", discountPercentage: 20, discountValidity: "first_3_months", voucherCode: expect.stringMatching(/^\d{4}-[A-Z]{4}$/) });
    expect(details.map((d) => d.studentName).sort()).toEqual(["Aluno 0", "Aluno 1", "Aluno 2"]);
  });

  it("'Benefícios reservados' counts the reservations that stand, not the expired or cancelled ones; the conversion divides by every voucher issued", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const api = await h.caller((await createStaff(h, school.id)).id);
    const benefit = await createDiscount(h, school.id, { className: `Turma ${Math.random().toString(36).slice(2, 7)}` });
    const voucher = async (validUntil?: string) => (await insertVoucher(h, benefit, (await createUser(h)).id, { validUntil })).voucherCode;
    const used = await voucher();
    await voucher();
    const cancelled = await voucher();
    await api.school.vouchers.confirm({ code: used });
    await api.school.vouchers.cancel({ code: cancelled, reason: "outro" });
    await voucher("2020-01-31");
    expect(await expireDueVouchers(h.deps)).toBe(1);
    // Past its last day but not yet rewritten by the job: shown 'Expirado', so not counted either.
    await voucher("2020-01-31");
    expect((await api.school.home()).counters).toEqual({ reserved: 2, issued: 5, used: 1, paused: 0, available: 1, conversionRate: 20 });
    expect(await api.school.vouchers.list({ status: "reservado" })).toHaveLength(1);
  });
});

describe("voucher desk", () => {
  it("looks a voucher up, confirms it once with who and when, and explains unknown, used and expired codes", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const staff = await createStaff(h, school.id);
    const api = await h.caller(staff.id);
    const benefit = await createDiscount(h, school.id, { monthlyFee: 400, percentage: 25 });
    const parent = await createUser(h, { profile: { studentName: "Pedro Lima" } });
    const voucher = await insertVoucher(h, benefit, parent.id);
    const found = await api.school.vouchers.lookup({ code: ` ${voucher.voucherCode.toLowerCase()} ` });
    expect(found).toMatchObject({ studentName: "Pedro Lima", className: benefit.className, monthlyFee: 400, discountedFee: 300, status: "reservado", validUntil: "2999-12-31" });
    const confirmed = await api.school.vouchers.confirm({ code: voucher.voucherCode });
    expect(confirmed).toMatchObject({ status: "utilizado", redeemedByName: "Usuário de Teste", redeemedAt: h.clock.now() });
    await expect(api.school.vouchers.confirm({ code: voucher.voucherCode })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherAlreadyUsed });
    await expect(api.school.vouchers.lookup({ code: "9999-ZZZZ" })).rejects.toMatchObject({ code: "NOT_FOUND", message: schoolMessages.voucherNotFound });
    await expect(api.school.vouchers.lookup({ code: "abc" })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const old = await insertVoucher(h, benefit, (await createUser(h)).id, { validUntil: "2020-01-31" });
    expect((await api.school.vouchers.lookup({ code: old.voucherCode })).status).toBe("expirado");
    await expect(api.school.vouchers.confirm({ code: old.voucherCode })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherExpired });
    const [stored] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, old.id));
    expect(stored).toMatchObject({ status: "reservado", redeemedAt: null });

    expect((await api.school.vouchers.list({ status: "utilizado" })).map((v) => v.voucherCode)).toEqual([voucher.voucherCode]);
    expect((await api.school.vouchers.list({ status: "expirado" })).map((v) => v.voucherCode)).toEqual([old.voucherCode]);
    expect(await api.school.vouchers.list({ status: "reservado" })).toEqual([]);
    expect(await api.school.vouchers.list()).toHaveLength(2);
  });

  it.skipIf(!onRealPostgres())("confirms a voucher exactly once when several desks confirm at the same moment", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const desks = await Promise.all(Array.from({ length: 8 }, async () => h.caller((await createStaff(h, school.id)).id)));
    const benefit = await createDiscount(h, school.id, { className: `Turma ${Math.random().toString(36).slice(2, 7)}` });
    for (let round = 0; round < 5; round++) {
      const voucher = await insertVoucher(h, benefit, (await createUser(h)).id);
      const results = await Promise.allSettled(desks.map((api) => api.school.vouchers.confirm({ code: voucher.voucherCode })));
      const ok = results.filter((r) => r.status === "fulfilled");
      expect(ok).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherAlreadyUsed });
      const [stored] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, voucher.id));
      expect(stored?.status).toBe("utilizado");
    }
  });
});

describe("plans", () => {
  it("activates a plan, then changes it; one active subscription per school", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const api = await h.caller(staff.id);
    expect(await api.plan.current()).toBeNull();
    expect(await api.plan.choose({ plan: "silver" })).toEqual({ plan: "silver", changed: false });
    expect(await api.plan.choose({ plan: "gold" })).toEqual({ plan: "gold", changed: true });
    expect((await api.plan.current())?.planType).toBe("gold");
    const colleague = await h.caller((await createStaff(h, school.id)).id);
    expect((await colleague.plan.current())?.planType).toBe("gold");
    const rows = await h.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.schoolId, school.id));
    expect(rows).toHaveLength(1);
    await expect(api.plan.choose({ plan: "platinum" } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it.skipIf(!onRealPostgres())("keeps one active subscription when two staff choose at the same moment", async () => {
    const school = await createSchool(h);
    const apis = await Promise.all(Array.from({ length: 6 }, async () => h.caller((await createStaff(h, school.id)).id)));
    const results = await Promise.all(apis.map((api, i) => api.plan.choose({ plan: i % 2 ? "gold" : "silver" })));
    expect(results.filter((r) => !r.changed)).toHaveLength(1);
    const rows = await h.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.schoolId, school.id));
    expect(rows).toHaveLength(1);
  });
});
