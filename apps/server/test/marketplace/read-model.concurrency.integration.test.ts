import { TRPCError } from "@trpc/server";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/raw";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { createSchool, createStaff, nicheIds, place } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";
import { admittedInPageOrder, listedInPageOrder, readModelDrift } from "../support/marketplace-oracle";
import { onRealPostgres } from "../support/test-db";

/**
 * The marketplace's read model (decision 145) under concurrent writers, on real PostgreSQL (PGlite
 * has one connection, so these are skipped there): a write held open while another one that
 * changes the same school's offers runs, and bursts of claims racing plan changes and benefit edits.
 */
type Api = Awaited<ReturnType<Harness["caller"]>>;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ poolMax: 12 });
});
afterAll(() => h.close());

const settled = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => {
      if (e instanceof TRPCError && e.code !== "INTERNAL_SERVER_ERROR") return e.code;
      throw e;
    },
  );

async function benefitValues(schoolId: string, scope: "city" | "neighborhood" | "all_except_own", slots: number) {
  const [school] = await queryRows<{ category_id: number; modality_id: number }>(h.db, sql`select category_id, modality_id from schools where id = ${schoolId}`);
  return {
    teachingStage: "iniciante" as const,
    categoryId: school!.category_id,
    modalityId: school!.modality_id,
    className: "Turma Concorrida",
    classPeriod: "tarde" as const,
    discountScope: scope,
    monthlyFee: 400,
    discountPercentage: 10,
    discountValidity: "first_month" as const,
    numberOfStudents: slots,
  };
}

describe.runIf(onRealPostgres())("a write held open while another changes the same school's offers", () => {
  async function waitingForLocks(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    return row!.n;
  }

  /**
   * `first` runs in a transaction left open (its triggers have run), then `second` (a real
   * procedure) starts and must wait; once `first` commits, the read model must equal its view.
   */
  async function interleave(first: (tx: postgres.ReservedSql) => Promise<unknown>, second: () => Promise<unknown>) {
    const client = postgres(h.dbHandle.url!, { max: 1, onnotice: () => {} });
    const tx = await client.reserve();
    try {
      await tx`begin`;
      await first(tx);
      let done = false;
      const running = settled(second()).finally(() => (done = true));
      let waited = false;
      for (let i = 0; i < 300 && !done && !waited; i++) {
        waited = (await waitingForLocks()) > 0;
        await new Promise((r) => setTimeout(r, 10));
      }
      await tx`commit`;
      expect(await running).toBe("ok");
      expect(await readModelDrift(h)).toEqual([]);
      // It waited for the first writer's school lock rather than refreshing from what was committed before.
      expect(waited).toBe(true);
    } finally {
      tx.release();
      await client.end();
    }
  }

  async function silverSchool() {
    const school = await createOfferingSchool(h, { plan: "silver" });
    const staff = await h.caller((await createStaff(h, school.id)).id);
    return { school, staff };
  }

  it("a plan turned Gold, then a benefit created: the benefit is Gold", async () => {
    const { school, staff } = await silverSchool();
    await createDiscount(h, school.id, { scope: "city" });
    await interleave(
      (tx) => tx`update subscriptions set plan_type = 'gold' where school_id = ${school.id} and status = 'active'`,
      async () => staff.school.benefits.create(await benefitValues(school.id, "city", 2)),
    );
  });

  it("a benefit created, then the plan turned Gold: the benefit is Gold", async () => {
    const { school, staff } = await silverSchool();
    const values = await benefitValues(school.id, "neighborhood", 2);
    await interleave(
      (tx) => tx`
        insert into discounts (school_id, teaching_stage, category_id, modality_id, class_name, class_period, discount_scope, monthly_fee, discount_percentage, discounted_fee, discount_validity, number_of_students)
        values (${school.id}, 'iniciante', ${values.categoryId}, ${values.modalityId}, 'Turma', 'tarde', 'neighborhood', 400, 10, 360, 'first_month', 2)`,
      () => staff.plan.choose({ plan: "gold" }),
    );
  });

  it("a school moved to another city, then its benefit's scope changed: the offer is under the new city", async () => {
    const { school, staff } = await silverSchool();
    const benefit = await createDiscount(h, school.id, { scope: "all_except_own" });
    const rio = await place(h, "RJ", "Rio de Janeiro", "Copacabana");
    await interleave(
      (tx) => tx`update schools set city_id = ${rio.cityId}, neighborhood_id = ${rio.neighborhoodId}, uf = 'RJ', city = 'Rio de Janeiro', neighborhood = 'Copacabana' where id = ${school.id}`,
      async () => staff.school.benefits.update({ id: benefit.id, values: await benefitValues(school.id, "city", 3) }),
    );
  });
});

describe.runIf(onRealPostgres())("claims racing plan changes and benefit edits", () => {
  it("never leave the read model stale: after each burst it equals its view and every parent sees what the rules admit", async () => {
    const school = await createOfferingSchool(h, { plan: "gold", neighborhood: "Moema" });
    const staff = await h.caller((await createStaff(h, school.id)).id);
    const main = await createSchool(h, { niche: "Ed. Básica", neighborhood: "Moema" });
    const parents: Array<{ id: string; api: Api }> = [];
    for (let i = 0; i < 12; i++) {
      const p = await eligibleParent(h, { schoolId: main.id });
      parents.push({ id: p.id, api: await h.caller(p.id) });
    }
    const benefits: Array<{ id: string }> = [];
    for (const scope of ["city", "neighborhood", "all_except_own"] as const) benefits.push(await createDiscount(h, school.id, { scope, slots: 100 }));
    const plans = ["silver", "bronze", "gold"] as const;
    const scopes = ["neighborhood", "all_except_own", "city"] as const;
    const pinheiros = await place(h, "SP", "São Paulo", "Pinheiros");
    const moema = await place(h, "SP", "São Paulo", "Moema");
    const niche = await nicheIds(h, "Idiomas");
    for (let round = 0; round < 15; round++) {
      const there = round % 2 ? pinheiros : moema;
      await Promise.all([
        ...parents.map((p, i) => settled(p.api.claim.create({ discountId: benefits[(i + round) % benefits.length]!.id }))),
        settled(staff.plan.choose({ plan: plans[round % plans.length]! })),
        settled(benefitValues(school.id, scopes[round % scopes.length]!, 100 - round).then((values) => staff.school.benefits.update({ id: benefits[round % 3]!.id, values }))),
        settled(staff.school.benefits[round % 2 ? "pause" : "reactivate"]({ id: benefits[(round + 1) % 3]!.id })),
        settled(staff.school.data.save({ name: school.name, stateId: there.stateId, cityId: there.cityId, neighborhoodId: there.neighborhoodId, ...niche, phone: null, whatsapp: null, address: null, cep: null })),
      ]);
      expect(await readModelDrift(h), `round ${round}`).toEqual([]);
      for (const p of parents.slice(0, 3)) expect(await listedInPageOrder(p.api, 2)).toEqual(await admittedInPageOrder(h, p.id));
    }
  }, 120_000);
});
