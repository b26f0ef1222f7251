import { schema } from "@elo/db";
import { schoolMessages, type BenefitInput } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireDueVouchers } from "../../src/vouchers/expire";
import { eligibleParent } from "../support/factories/benefits";
import { createSchool, createStaff, nicheIds } from "../support/factories/schools";
import { slotCount } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const at = (iso: string) => h.clock.set(new Date(iso));

async function benefitForm(overrides: Partial<BenefitInput> = {}): Promise<BenefitInput> {
  return {
    teachingStage: "iniciante" as const,
    ...(await nicheIds(h, "Idiomas")),
    className: `Turma ${Math.random().toString(36).slice(2, 8)}`,
    classPeriod: "tarde" as const,
    discountScope: "all_except_own" as const,
    monthlyFee: 400,
    discountPercentage: 25,
    discountValidity: "first_6_months" as const,
    numberOfStudents: 2,
    ...overrides,
  };
}

async function schoolWithDesk() {
  const school = await createSchool(h, { plan: "gold", niche: "Idiomas" });
  return { school, desk: await h.caller((await createStaff(h, school.id)).id) };
}

describe("a hold on reservations (decision 121)", () => {
  it("shows the hold on the card, the e-mail, the confirmation, the panel and the desk, and expires the voucher the day after it ends", async () => {
    at("2026-03-10T15:00:00Z");
    const { desk } = await schoolWithDesk();
    const benefit = await desk.school.benefits.create(await benefitForm({ holdDays: 3 }));
    const parent = await eligibleParent(h);
    const api = await h.caller(parent.id);

    const card = (await api.marketplace.list()).items.find((i) => i.discountId === benefit.id);
    expect(card).toMatchObject({ holdDays: 3 });
    const { transactionId, voucherCode } = await api.claim.create({ discountId: benefit.id });

    const [mail] = await h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, parent.email), eq(schema.emailOutbox.kind, "voucher")));
    for (const text of ["Apresente o voucher em até 3 dias", "Apresentar até: 13/03/2026"]) expect(mail?.text).toContain(text);
    expect((await api.claim.byId({ transactionId })).presentBy).toBe("2026-03-13");
    expect((await api.claim.history())[0]).toMatchObject({ presentBy: "2026-03-13", status: "reservado" });
    expect(await desk.school.vouchers.lookup({ code: voucherCode })).toMatchObject({ presentBy: "2026-03-13", status: "reservado" });

    // 23:59 of the hold's last day in Brasília: still valid.
    at("2026-03-14T02:59:00Z");
    expect(await expireDueVouchers(h.deps)).toBe(0);
    // The next day the desk already refuses it, even before the job has run...
    at("2026-03-14T03:00:30Z");
    expect(await desk.school.vouchers.lookup({ code: voucherCode })).toMatchObject({ status: "expirado" });
    await expect(desk.school.vouchers.confirm({ code: voucherCode })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherExpired });
    // ...and the job expires it and returns the slot, long before the 6 months of validity end.
    expect(await expireDueVouchers(h.deps)).toBe(1);
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 2, expirado: 1, reservado: 0 });
    expect((await api.claim.history())[0]).toMatchObject({ status: "expirado", validUntil: "2026-09-10" });
  });

  it("without a hold nothing changes: no note, no present-by date, valid until the validity ends", async () => {
    at("2026-03-10T15:00:00Z");
    const { desk } = await schoolWithDesk();
    const benefit = await desk.school.benefits.create(await benefitForm({ discountValidity: "first_month" }));
    const parent = await eligibleParent(h);
    const api = await h.caller(parent.id);
    expect((await api.marketplace.list()).items.find((i) => i.discountId === benefit.id)).toMatchObject({ holdDays: null });
    const { transactionId } = await api.claim.create({ discountId: benefit.id });
    const [mail] = await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.to, parent.email));
    expect(mail?.text).not.toContain("Apresente o voucher em até");
    expect((await api.claim.byId({ transactionId })).presentBy).toBeNull();
    at("2026-04-10T20:00:00Z");
    expect(await expireDueVouchers(h.deps)).toBe(0);
    at("2026-04-11T12:00:00Z");
    expect(await expireDueVouchers(h.deps)).toBe(1);
  });

  it("a hold longer than the validity changes nothing: the validity's end comes first", async () => {
    at("2026-03-10T15:00:00Z");
    const { desk } = await schoolWithDesk();
    const benefit = await desk.school.benefits.create(await benefitForm({ discountValidity: "first_month", holdDays: 90 }));
    const api = await h.caller((await eligibleParent(h)).id);
    const { transactionId } = await api.claim.create({ discountId: benefit.id });
    at("2026-04-11T12:00:00Z");
    expect(await expireDueVouchers(h.deps)).toBe(1);
    expect((await api.claim.byId({ transactionId })).status).toBe("expirado");
  });

  it("is set on the form (1 to 90 days), and frozen like the other terms once a voucher exists", async () => {
    at("2026-03-10T15:00:00Z");
    const { desk } = await schoolWithDesk();
    for (const bad of [0, 91, 2.5]) await expect(desk.school.benefits.create(await benefitForm({ holdDays: bad })), String(bad)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const form = await benefitForm({ holdDays: 5 });
    const benefit = await desk.school.benefits.create(form);
    // Before any voucher it may change or go away.
    await desk.school.benefits.update({ id: benefit.id, values: { ...form, holdDays: 7 } });
    expect((await desk.school.benefits.list())[0]).toMatchObject({ holdDays: 7 });
    const { holdDays: _omitted, ...withoutHold } = form;
    await desk.school.benefits.update({ id: benefit.id, values: withoutHold });
    expect((await desk.school.benefits.list())[0]).toMatchObject({ holdDays: 7 });

    await (await h.caller((await eligibleParent(h)).id)).claim.create({ discountId: benefit.id });
    for (const holdDays of [null, 3]) {
      await expect(desk.school.benefits.update({ id: benefit.id, values: { ...form, holdDays } })).rejects.toMatchObject({
        code: "CONFLICT",
        toast: { description: schoolMessages.termsLockedByVouchers },
      });
    }
    // Other fields still change, and an update that leaves the hold out keeps it.
    await desk.school.benefits.update({ id: benefit.id, values: { ...withoutHold, numberOfStudents: 9 } });
    expect((await desk.school.benefits.list())[0]).toMatchObject({ holdDays: 7, numberOfStudents: 9 });
  });
});
