import { schema } from "@elo/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { createSchool } from "../support/factories/schools";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("landing.banner", () => {
  it("is empty without schools with a plan, then shows a planned school, and prefers Gold", async () => {
    const anon = await h.caller(null);
    await createSchool(h, { plan: null });
    expect(await anon.landing.banner()).toBeNull();

    const silver = await createSchool(h, { niche: "Clubes", plan: "silver" });
    expect(await anon.landing.banner()).toMatchObject({ id: silver.id, planType: "silver", niche: "Clubes", bestBenefit: null });

    const gold = await createSchool(h, { niche: "Idiomas", plan: "gold" });
    await h.db.update(schema.schools).set({ logoUrl: "logos/gold.png" });
    for (let i = 0; i < 5; i++) {
      const banner = await anon.landing.banner();
      expect(banner).toMatchObject({ id: gold.id, name: gold.name, planType: "gold", logoUrl: "/files/school_logos/logos/gold.png" });
    }
  });
});
