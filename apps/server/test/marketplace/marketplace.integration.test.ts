import { schema } from "@elo/db";
import { marketplaceMessages as m } from "@elo/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addEnrollment, createDiscount, createOfferingSchool, eligibleParent, marketWorld, setPlan } from "../support/factories/benefits";
import { createSchool, createStaff } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";
import { countStatements } from "../support/statements";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<Harness["caller"]>>;

/** Every card the caller may see, page after page (the file's benefits pile up past one page). */
async function allCards(api: Api, limit?: number) {
  const pages = [];
  let cursor: string | null = null;
  do {
    const page = await api.marketplace.list({ cursor, limit });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 500);
  return { pages, items: pages.flatMap((p) => p.items) };
}

async function visibleIds(userId: string) {
  return (await allCards(await h.caller(userId))).items.map((i) => i.discountId);
}

describe("marketplace.list", () => {
  it("shows an admitted benefit shaped as the spec's marketplace benefit", async () => {
    const { parent, school, discount } = await marketWorld(h, { discount: { className: "Inglês Kids", percentage: 30, monthlyFee: 420, slots: 8 } });
    const list = await (await h.caller(parent.id)).marketplace.list();
    expect(list.viewer).toEqual({ kind: "parent", hasSchool: true, profileCompleted: true, proofSubmitted: true, enrollmentVerified: false });
    const card = list.items.find((i) => i.discountId === discount.id);
    expect(card).toMatchObject({
      className: "Inglês Kids",
      discountPercentage: 30,
      discountValidity: "first_3_months",
      numberOfStudents: 8,
      schoolName: school.name,
      monthlyFee: 420,
      discountedFee: 294,
      gold: true,
      claimed: false,
      requiresVerifiedEnrollment: false,
    });
  });

  it("hides a benefit that is paused (rule 1)", async () => {
    const { parent, school } = await marketWorld(h);
    const paused = await createDiscount(h, school.id, { status: "paused" });
    expect(await visibleIds(parent.id)).not.toContain(paused.id);
  });

  it("keeps a sold-out active benefit in view at 0 slots, for its waitlist (rule 1 as DECISIONS.md reads it once the waitlist exists)", async () => {
    const { parent, school } = await marketWorld(h);
    const soldOut = await createDiscount(h, school.id, { slots: 0 });
    const card = (await allCards(await h.caller(parent.id))).items.find((i) => i.discountId === soldOut.id);
    expect(card).toMatchObject({ numberOfStudents: 0, claimed: false, waitlist: null });
  });

  it("hides a benefit of the same niche as the parent's main school (rule 2)", async () => {
    const parent = await eligibleParent(h, { school: { niche: "Idiomas" } });
    const school = await createOfferingSchool(h, { niche: "Idiomas" });
    const same = await createDiscount(h, school.id);
    const otherSchool = await createOfferingSchool(h, { niche: "Clubes" });
    const other = await createDiscount(h, otherSchool.id);
    const ids = await visibleIds(parent.id);
    expect(ids).not.toContain(same.id);
    expect(ids).toContain(other.id);
  });

  it("hides benefits of schools on Bronze or without a plan (rule 3)", async () => {
    const { parent, school, discount } = await marketWorld(h);
    await setPlan(h, school.id, "bronze");
    expect(await visibleIds(parent.id)).not.toContain(discount.id);
    await setPlan(h, school.id, null);
    expect(await visibleIds(parent.id)).not.toContain(discount.id);
    await setPlan(h, school.id, "silver");
    expect(await visibleIds(parent.id)).toContain(discount.id);
  });

  it("admits 'my neighborhood' only for parents whose main school is in the same neighborhood (rule 4)", async () => {
    const school = await createOfferingSchool(h, { neighborhood: "Pinheiros" });
    const discount = await createDiscount(h, school.id, { scope: "neighborhood" });
    const near = await eligibleParent(h, { school: { neighborhood: "Pinheiros" } });
    const far = await eligibleParent(h, { school: { neighborhood: "Moema" } });
    expect(await visibleIds(near.id)).toContain(discount.id);
    expect(await visibleIds(far.id)).not.toContain(discount.id);
  });

  it("matches 'my neighborhood' by name when a school's neighborhood is typed by hand (no place id) (rule 4)", async () => {
    const typed = (schoolId: string, neighborhood: string) =>
      h.db.update(schema.schools).set({ neighborhoodId: null, neighborhood }).where(eq(schema.schools.id, schoolId));
    const school = await createOfferingSchool(h, { neighborhood: "Moema" });
    await typed(school.id, "Vila Esperança");
    const discount = await createDiscount(h, school.id, { scope: "neighborhood" });
    const typedSame = await eligibleParent(h, { school: { neighborhood: "Pinheiros" } });
    await typed(typedSame.schoolId!, "vila esperança");
    const typedOther = await eligibleParent(h, { school: { neighborhood: "Pinheiros" } });
    await typed(typedOther.schoolId!, "Vila Nova");
    const known = await eligibleParent(h, { school: { neighborhood: "Pinheiros" } });
    expect(await visibleIds(typedSame.id)).toContain(discount.id);
    expect(await visibleIds(typedOther.id)).not.toContain(discount.id);
    expect(await visibleIds(known.id)).not.toContain(discount.id);
  });

  it("admits 'my city' only for parents whose main school is in the same city (rule 4)", async () => {
    const school = await createOfferingSchool(h, { neighborhood: "Moema" });
    const discount = await createDiscount(h, school.id, { scope: "city" });
    const sameCity = await eligibleParent(h, { school: { neighborhood: "Pinheiros" } });
    const otherCity = await eligibleParent(h, { school: { uf: "RJ", city: "Rio de Janeiro", neighborhood: "Copacabana" } });
    expect(await visibleIds(sameCity.id)).toContain(discount.id);
    expect(await visibleIds(otherCity.id)).not.toContain(discount.id);
  });

  it("admits 'all but own' anywhere, except for the offering school's own students (rule 4)", async () => {
    const school = await createOfferingSchool(h, { neighborhood: "Moema" });
    const discount = await createDiscount(h, school.id, { scope: "all_except_own" });
    const elsewhere = await eligibleParent(h, { school: { uf: "RJ", city: "Rio de Janeiro", neighborhood: "Copacabana" } });
    expect(await visibleIds(elsewhere.id)).toContain(discount.id);
    const ownStudent = await eligibleParent(h);
    await addEnrollment(h, ownStudent.id, school.id);
    expect(await visibleIds(ownStudent.id)).not.toContain(discount.id);
  });

  it("hides every scope's benefit from a parent already enrolled at the offering school (decision 030)", async () => {
    const school = await createOfferingSchool(h, { neighborhood: "Pinheiros" });
    const scopes = ["neighborhood", "city", "all_except_own"] as const;
    const discounts = await Promise.all(scopes.map((scope) => createDiscount(h, school.id, { scope })));
    const parent = await eligibleParent(h, { school: { neighborhood: "Pinheiros" } });
    const ids = discounts.map((d) => d.id);
    expect(await visibleIds(parent.id)).toEqual(expect.arrayContaining(ids));
    await addEnrollment(h, parent.id, school.id);
    const after = await visibleIds(parent.id);
    for (const id of ids) expect(after).not.toContain(id);
    await expect((await h.caller(parent.id)).claim.create({ discountId: discounts[0]!.id })).rejects.toMatchObject({ toast: { title: "Desconto indisponível" } });
  });

  it("lists Gold schools first, then the newest benefits", async () => {
    const parent = await eligibleParent(h, { school: { uf: "RJ", city: "Niterói", neighborhood: "Icaraí" } });
    const silver = await createOfferingSchool(h, { plan: "silver", uf: "RJ", city: "Niterói", neighborhood: "Icaraí" });
    const gold = await createOfferingSchool(h, { plan: "gold", uf: "RJ", city: "Niterói", neighborhood: "Icaraí" });
    const t0 = Date.now();
    const silverNew = await createDiscount(h, silver.id, { scope: "neighborhood", createdAt: new Date(t0) });
    const goldOld = await createDiscount(h, gold.id, { scope: "neighborhood", createdAt: new Date(t0 - 60_000) });
    const goldNew = await createDiscount(h, gold.id, { scope: "neighborhood", createdAt: new Date(t0 - 30_000) });
    const silverOld = await createDiscount(h, silver.id, { scope: "neighborhood", createdAt: new Date(t0 - 90_000) });
    const mine = new Set([silverNew.id, goldOld.id, goldNew.id, silverOld.id]);
    const ids = (await visibleIds(parent.id)).filter((id) => mine.has(id));
    expect(ids).toEqual([goldNew.id, goldOld.id, silverNew.id, silverOld.id]);
  });

  it("marks claimed benefits and keeps them in view even once sold out", async () => {
    const { parent, discount } = await marketWorld(h, { discount: { slots: 1 } });
    const api = await h.caller(parent.id);
    await api.claim.create({ discountId: discount.id });
    const card = (await allCards(api)).items.find((i) => i.discountId === discount.id);
    expect(card).toMatchObject({ claimed: true, numberOfStudents: 0 });
    // Another parent sees it sold out, not claimed: they may join its waitlist.
    const stranger = await eligibleParent(h);
    const theirs = (await allCards(await h.caller(stranger.id))).items.find((i) => i.discountId === discount.id);
    expect(theirs).toMatchObject({ claimed: false, numberOfStudents: 0 });
  });

  it("lists as helping schools the parent's own schools that are members of the network", async () => {
    const main = await createSchool(h, { niche: "Ed. Básica", name: "Colégio Ajudante Principal" });
    await createStaff(h, main.id, "approved");
    const enrolled = await createSchool(h, { niche: "Clubes", name: "Clube Ajudante" });
    await createStaff(h, enrolled.id, "approved");
    const outsider = await createSchool(h, { niche: "Tecnologia", name: "Escola Fora da Rede" });
    await createStaff(h, outsider.id, "pending");
    const parent = await eligibleParent(h, { schoolId: main.id });
    await addEnrollment(h, parent.id, enrolled.id);
    await addEnrollment(h, parent.id, outsider.id);
    await h.db.update(schema.schools).set({ logoUrl: "logos/ajudante.png" }).where(eq(schema.schools.id, main.id));
    const school = await createOfferingSchool(h, { niche: "Idiomas" });
    const discount = await createDiscount(h, school.id);
    const list = await (await h.caller(parent.id)).marketplace.list();
    expect(await visibleIds(parent.id)).toContain(discount.id);
    // The same for every card, so sent once per response (decision 086).
    expect(list.helpingSchools).toEqual([
      { id: main.id, name: "Colégio Ajudante Principal", logoUrl: "/files/school_logos/logos/ajudante.png" },
      { id: enrolled.id, name: "Clube Ajudante", logoUrl: null },
    ]);
  });

  it("gives a parent without a main school an empty list and the complete-registration state", async () => {
    const parent = await eligibleParent(h, { schoolId: null });
    const list = await (await h.caller(parent.id)).marketplace.list();
    expect(list.viewer).toMatchObject({ kind: "parent", hasSchool: false });
    expect(list.items).toEqual([]);
  });

  it("gives school users the 'Área da Escola' state and users without a profile theirs", async () => {
    await marketWorld(h);
    const school = await createSchool(h, { niche: "Clubes", plan: "gold" });
    const staff = await createStaff(h, school.id);
    const staffList = await (await h.caller(staff.id)).marketplace.list();
    expect(staffList).toEqual({ viewer: { kind: "institution" }, helpingSchools: [], items: [], nextCursor: null });

    const bare = await createUser(h);
    await h.db.delete(schema.profiles).where(eq(schema.profiles.userId, bare.id));
    expect(await (await h.caller(bare.id)).marketplace.list()).toEqual({ viewer: { kind: "no_profile" }, helpingSchools: [], items: [], nextCursor: null });
  });

  it("answers with one SQL statement whatever the number of cards", async () => {
    const { parent, school } = await marketWorld(h);
    for (let i = 0; i < 5; i++) await createDiscount(h, school.id);
    const api = await h.caller(parent.id);
    const statements = countStatements(h.db);
    try {
      const list = await api.marketplace.list();
      expect(list.items.length).toBeGreaterThanOrEqual(6);
      expect(statements.count()).toBe(1);
    } finally {
      statements.restore();
    }
  });

  it("the default page's statement, built once (decision 213), serves each parent their own page", async () => {
    const { parent: first, discount } = await marketWorld(h);
    const second = await eligibleParent(h);
    const firstApi = await h.caller(first.id);
    const secondApi = await h.caller(second.id);
    await firstApi.claim.create({ discountId: discount.id });
    // Alternating: a viewer baked into the statement would show up on the other parent's page.
    for (const [api, claimed] of [[firstApi, true], [secondApi, false], [firstApi, true], [secondApi, false]] as const) {
      const page = await api.marketplace.list();
      expect(page.items.find((i) => i.discountId === discount.id)?.claimed).toBe(claimed);
    }
  });

  it("refuses anonymous callers", async () => {
    await expect((await h.caller(null)).marketplace.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("has the spec's card texts in the catalogue", () => {
    expect(m.oneSlot).toBe("1 vaga disponível");
    expect(m.slots(3)).toBe("3 vagas disponíveis");
  });
});

describe("marketplace.list pages (decision 086)", () => {
  /** A parent alone in a town, with Gold and Silver schools publishing benefits for that town. */
  async function town(city: string, gold: number, silver: number) {
    const place = { uf: "RJ", city, neighborhood: "Centro" };
    const parent = await eligibleParent(h, { school: place });
    const goldSchool = await createOfferingSchool(h, { plan: "gold", ...place });
    const silverSchool = await createOfferingSchool(h, { plan: "silver", ...place });
    const t0 = Date.now();
    // Gold benefits share one creation instant, so only the id orders them.
    const tie = new Date(t0 - 5_000);
    const golds = [];
    for (let i = 0; i < gold; i++) golds.push(await createDiscount(h, goldSchool.id, { scope: "city", createdAt: tie }));
    const silvers = [];
    for (let i = 0; i < silver; i++) silvers.push(await createDiscount(h, silverSchool.id, { scope: "neighborhood", createdAt: new Date(t0 - i * 1000) }));
    return { parent, goldSchool, golds, silvers };
  }

  it("walks every card exactly once, in the same order, whatever the page size", async () => {
    const { parent, golds, silvers } = await town("Petrópolis", 7, 5);
    const api = await h.caller(parent.id);
    const whole = await api.marketplace.list({ limit: 100 });
    expect(whole.nextCursor).toBeNull();
    const expected = whole.items.map((i) => i.discountId);
    for (const limit of [1, 3, 7, 24]) {
      const { pages, items } = await allCards(api, limit);
      const ids = items.map((i) => i.discountId);
      expect(ids).toEqual(expected);
      expect(new Set(ids).size).toBe(ids.length);
      expect(pages.every((p) => p.items.length <= limit)).toBe(true);
      expect(pages.at(-1)!.nextCursor).toBeNull();
    }
    const mine = new Set([...golds, ...silvers].map((d) => d.id));
    const ordered = expected.filter((id) => mine.has(id));
    expect(ordered).toEqual([...golds.map((d) => d.id).sort(), ...silvers.map((d) => d.id)]);
    // Gold first across the whole list, then newest.
    const goldFlags = whole.items.map((i) => i.gold);
    expect(goldFlags).toEqual([...goldFlags].sort((a, b) => Number(b) - Number(a)));
  });

  it("sends 24 cards by default, the helping schools and viewer once, and a cursor to the next page", async () => {
    const { parent } = await town("Teresópolis", 20, 10);
    const api = await h.caller(parent.id);
    const first = await api.marketplace.list();
    expect(first.items).toHaveLength(24);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.viewer).toMatchObject({ kind: "parent", hasSchool: true });
    expect(first.items[0]).not.toHaveProperty("helpingSchools");
    const second = await api.marketplace.list({ cursor: first.nextCursor });
    expect(second.viewer).toEqual(first.viewer);
    expect(second.helpingSchools).toEqual(first.helpingSchools);
    const firstIds = new Set(first.items.map((i) => i.discountId));
    expect(second.items.some((i) => firstIds.has(i.discountId))).toBe(false);
  });

  it("neither repeats nor skips a card when a newer benefit appears between two pages", async () => {
    const { parent, goldSchool } = await town("Nova Friburgo", 4, 4);
    const api = await h.caller(parent.id);
    const before = (await allCards(api, 100)).items.map((i) => i.discountId);
    const first = await api.marketplace.list({ limit: 3 });
    const newer = await createDiscount(h, goldSchool.id, { scope: "city" });
    const rest = (await allCards(api, 3)).items.map((i) => i.discountId);
    expect(rest).toContain(newer.id);
    let cursor = first.nextCursor;
    const seen = first.items.map((i) => i.discountId);
    while (cursor) {
      const page = await api.marketplace.list({ cursor, limit: 3 });
      seen.push(...page.items.map((i) => i.discountId));
      cursor = page.nextCursor;
    }
    // The new card sorts before the cursor, so this walk does not meet it; every older card once.
    expect(seen).toEqual(before);
  });

  it("refuses a cursor it did not make", async () => {
    const { parent } = await marketWorld(h);
    const api = await h.caller(parent.id);
    await expect(api.marketplace.list({ cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.marketplace.list({ cursor: "not a cursor!" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.marketplace.list({ limit: 1000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
