import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { schoolMessages } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { createSchool, createStaff, nicheIds } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { createDiscount } from "../support/factories/benefits";
import { insertVoucher } from "../support/factories/vouchers";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<Harness["caller"]>>;

/** Every procedure that touches a school, called with plausible input. */
async function schoolCalls(api: Api, ids: { benefitId: string; code: string }) {
  const { categoryId, modalityId } = await nicheIds(h, "Idiomas");
  const benefit = {
    teachingStage: "iniciante" as const,
    categoryId,
    modalityId,
    className: "Turma X",
    classPeriod: "tarde" as const,
    discountScope: "city" as const,
    monthlyFee: 300,
    discountPercentage: 10,
    discountValidity: "first_month" as const,
    numberOfStudents: 3,
  };
  return {
    home: () => api.school.home(),
    reservedDetails: () => api.school.reservedDetails(),
    dataGet: () => api.school.data.get(),
    dataSave: () => api.school.data.save({ name: "X", stateId: 1, cityId: 1, neighborhoodId: 1, categoryId, modalityId }),
    deleteLogo: () => api.school.data.deleteLogo(),
    list: () => api.school.benefits.list(),
    create: () => api.school.benefits.create(benefit),
    update: () => api.school.benefits.update({ id: ids.benefitId, values: benefit }),
    remove: () => api.school.benefits.delete({ id: ids.benefitId }),
    pause: () => api.school.benefits.pause({ id: ids.benefitId }),
    reactivate: () => api.school.benefits.reactivate({ id: ids.benefitId }),
    lookup: () => api.school.vouchers.lookup({ code: ids.code }),
    confirm: () => api.school.vouchers.confirm({ code: ids.code }),
    cancel: () => api.school.vouchers.cancel({ code: ids.code, reason: "outro" }),
    vouchers: () => api.school.vouchers.list(),
    planCurrent: () => api.plan.current(),
    planChoose: () => api.plan.choose({ plan: "gold" }),
  };
}

describe("school procedures: who may call them", () => {
  it("refuses pending, rejected and unlinked institution users, parents and visitors on every school procedure", async () => {
    const school = await createSchool(h, { plan: "silver" });
    const benefit = await createDiscount(h, school.id, { className: `Turma ${Math.random().toString(36).slice(2, 7)}` });
    const parent = await createUser(h);
    const voucher = await insertVoucher(h, benefit, parent.id);
    const ids = { benefitId: benefit.id, code: voucher.voucherCode };
    const pending = await createStaff(h, school.id, "pending");
    const rejected = await createStaff(h, school.id, "rejected");
    const unlinked = await createUser(h, { profileType: "institution" });
    const cases: Array<[string | null, string]> = [
      [pending.id, "FORBIDDEN"],
      [rejected.id, "FORBIDDEN"],
      [unlinked.id, "FORBIDDEN"],
      [parent.id, "FORBIDDEN"],
      [null, "UNAUTHORIZED"],
    ];
    for (const [userId, code] of cases) {
      const calls = await schoolCalls(await h.caller(userId), ids);
      for (const [name, call] of Object.entries(calls)) {
        await expect(call(), `${name} as ${userId}`).rejects.toMatchObject({ code });
      }
    }
    const api = await h.caller(pending.id);
    await expect(api.school.home()).rejects.toMatchObject({ message: expect.stringContaining("aguardando aprovação") });
    // Nothing changed behind the refusals.
    const staff = await createStaff(h, school.id);
    const [row] = (await (await h.caller(staff.id)).school.benefits.list()).filter((b) => b.id === benefit.id);
    expect(row).toMatchObject({ status: "active", className: benefit.className, voucherCount: 1 });
  });

  it("keeps staff of school A away from school B's benefits, vouchers and data", async () => {
    const schoolA = await createSchool(h, { plan: "gold" });
    const schoolB = await createSchool(h, { plan: "gold" });
    const staffA = await createStaff(h, schoolA.id);
    const benefitB = await createDiscount(h, schoolB.id, { className: `Turma ${Math.random().toString(36).slice(2, 7)}` });
    const parent = await createUser(h);
    const voucherB = await insertVoucher(h, benefitB, parent.id);
    const api = await h.caller(staffA.id);
    const calls = await schoolCalls(api, { benefitId: benefitB.id, code: voucherB.voucherCode });
    for (const name of ["update", "remove", "pause", "reactivate"] as const) {
      await expect(calls[name](), name).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
    await expect(calls.lookup()).rejects.toMatchObject({ code: "FORBIDDEN", message: schoolMessages.voucherOtherSchool });
    await expect(calls.confirm()).rejects.toMatchObject({ code: "FORBIDDEN", message: schoolMessages.voucherOtherSchool });
    await expect(calls.cancel()).rejects.toMatchObject({ code: "FORBIDDEN", message: schoolMessages.voucherOtherSchool });
    const [stillReserved] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, voucherB.id));
    expect(stillReserved).toMatchObject({ status: "reservado", cancelReason: null });
    expect(await api.school.benefits.list()).toEqual([]);
    expect(await api.school.vouchers.list()).toEqual([]);
    expect(await api.school.reservedDetails()).toEqual([]);
    expect((await api.school.data.get()).id).toBe(schoolA.id);
    expect((await api.school.home()).counters.reserved).toBe(0);

    const staffB = await createStaff(h, schoolB.id);
    const [b] = await (await h.caller(staffB.id)).school.benefits.list();
    expect(b).toMatchObject({ id: benefitB.id, status: "active", className: benefitB.className });
    const v = await (await h.caller(staffB.id)).school.vouchers.lookup({ code: voucherB.voucherCode });
    expect(v.status).toBe("reservado");
  });
});

describe("membership request on /meus-dados", () => {
  it("saves name, WhatsApp and position, requests the school as pending, and approved staff then share the school", async () => {
    const school = await createSchool(h, { plan: "silver" });
    const colleague = await createStaff(h, school.id);
    const user = await createUser(h, { profileType: "institution" });
    const api = await h.caller(user.id);
    const result = await api.school.profile.save({ fullName: "Mariana Souza", phone: "(11) 98765-4321", position: "Diretor(a)", schoolId: school.id });
    expect(result.requested).toBe(true);
    const profile = await api.school.profile.get();
    expect(profile).toMatchObject({ fullName: "Mariana Souza", phone: "11987654321", position: "Diretor(a)", positionListed: true, membership: { status: "pending", schoolId: school.id } });
    await expect(api.school.benefits.list()).rejects.toMatchObject({ code: "FORBIDDEN" });

    // An admin approves (the admin issue's action, seeded here).
    const { schema } = await import("@elo/db");
    const { eq } = await import("drizzle-orm");
    await h.db.update(schema.schoolMemberships).set({ status: "approved" }).where(eq(schema.schoolMemberships.userId, user.id));
    const benefit = await (await h.caller(colleague.id)).school.benefits.create({
      teachingStage: "avancado",
      ...(await nicheIds(h, "Idiomas")),
      className: "Conversação",
      classPeriod: "noite",
      discountScope: "city",
      monthlyFee: 450,
      discountPercentage: 15,
      discountValidity: "school_year",
      numberOfStudents: 4,
    });
    const [shared] = await api.school.benefits.list();
    expect(shared?.id).toBe(benefit.id);

    // Saving again with the same school keeps the approval.
    await api.school.profile.save({ fullName: "Mariana Souza", phone: null, position: null, schoolId: school.id });
    expect((await api.school.profile.get()).membership?.status).toBe("approved");
  });

  it("refuses a position that is not in the list and flags a stored one that is no longer listed", async () => {
    const user = await createUser(h, { profileType: "institution", profile: { position: "Cargo Antigo" } });
    const api = await h.caller(user.id);
    expect((await api.school.profile.get()).positionListed).toBe(false);
    await expect(api.school.profile.save({ fullName: "Ana", position: "Cargo Antigo", schoolId: null })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.school.profile.save({ fullName: "Ana", phone: "123", schoolId: null })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("is refused to parents", async () => {
    const parent = await createUser(h);
    await expect((await h.caller(parent.id)).school.profile.get()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
