import { schema } from "@elo/db";
import { accessMessages, schoolMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createSchool, createStaff, nicheIds } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { trpcMutation } from "../support/http-client";

/**
 * Money over HTTP, as the benefit form posts it: a fee or percentage with more than two decimals is
 * refused on its field (never stored rounded), and the discounted fee is computed in whole centavos.
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

async function staffOfPublishingSchool() {
  const school = await createSchool(h, { plan: "gold" });
  const staff = await createStaff(h, school.id);
  return { school, cookie: await sessionCookie(h, staff.id) };
}

async function form(overrides: Record<string, unknown> = {}) {
  return {
    teachingStage: "iniciante",
    ...(await nicheIds(h, "Idiomas")),
    className: "Turma Centavos",
    classPeriod: "tarde",
    discountScope: "all_except_own",
    monthlyFee: 300,
    discountPercentage: 10,
    discountValidity: "first_month",
    numberOfStudents: 3,
    ...overrides,
  };
}

const benefitsOf = (schoolId: string) => h.db.select().from(schema.discounts).where(eq(schema.discounts.schoolId, schoolId));

describe("benefit money over HTTP", () => {
  it.each([0.001, 100.005, 1e-7, 0.30000000000000004, 12_345_678.901])("refuses a monthly fee of %s on its field; nothing is stored", async (fee) => {
    const { school, cookie } = await staffOfPublishingSchool();
    const res = await trpcMutation(server, "school.benefits.create", await form({ monthlyFee: fee }), cookie);
    expect(res.status).toBe(400);
    expect(res.body.error?.data.toast).toEqual({ title: accessMessages.validationTitle, description: schoolMessages.feeTooPrecise });
    expect(res.body.error?.data.fieldErrors?.monthlyFee).toEqual([schoolMessages.feeTooPrecise]);
    expect(await benefitsOf(school.id)).toEqual([]);
  });

  it.each([10.005, 1e-7, 33.333])("refuses a discount percentage of %s on its field", async (pct) => {
    const { school, cookie } = await staffOfPublishingSchool();
    const res = await trpcMutation(server, "school.benefits.create", await form({ discountPercentage: pct }), cookie);
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors?.discountPercentage).toEqual([schoolMessages.percentageTooPrecise]);
    expect(await benefitsOf(school.id)).toEqual([]);
  });

  it("refuses an over-precise fee on update as well; the stored benefit is unchanged", async () => {
    const { school, cookie } = await staffOfPublishingSchool();
    const created = await trpcMutation(server, "school.benefits.create", await form(), cookie);
    expect(created.status).toBe(200);
    const before = await benefitsOf(school.id);
    const { id } = created.body.result!.data as { id: string };
    const res = await trpcMutation(server, "school.benefits.update", { id, values: await form({ monthlyFee: 100.005 }) }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error?.data.toast.description).toBe(schoolMessages.feeTooPrecise);
    expect(await benefitsOf(school.id)).toEqual(before);
  });

  it.each([
    // fee, percentage, discounted fee: fee × (100 − percentage) / 100 in centavos, half a centavo rounded up.
    [100.1, 25, 75.08],
    [100.85, 10, 90.77],
    [1.15, 10, 1.04],
    [0.01, 50, 0.01],
    [420, 30, 294],
    [100, 33.33, 66.67],
    [99_999_999.99, 0.01, 99_989_999.99],
    [250, 100, 0],
  ])("stores a fee of %s at %s percent with a discounted fee of %s", async (fee, pct, expected) => {
    const { school, cookie } = await staffOfPublishingSchool();
    const res = await trpcMutation(server, "school.benefits.create", await form({ monthlyFee: fee, discountPercentage: pct }), cookie);
    expect(res.status).toBe(200);
    expect(res.body.result?.data).toMatchObject({ discountedFee: expected });
    const [row] = await benefitsOf(school.id);
    expect({ monthlyFee: row!.monthlyFee, discountPercentage: row!.discountPercentage, discountedFee: row!.discountedFee }).toEqual({ monthlyFee: fee, discountPercentage: pct, discountedFee: expected });
  });
});
