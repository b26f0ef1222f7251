import { marketplaceFilterMessages as fm, marketplaceMessages as m } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { nicheIds } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";
import { countStatements } from "../support/statements";

/**
 * Issue 31 (decision 170): the marketplace's search in Portuguese (accents, case, typos), the
 * parameters it refuses with Portuguese messages, cursors per order, and the facets' cost. The
 * filters' and counts' agreement with the rules is read-model.integration.test.ts's property.
 */
let h: Harness;
type Api = Awaited<ReturnType<Harness["caller"]>>;
let api: Api;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await createHarness();
  const parent = await eligibleParent(h);
  api = await h.caller(parent.id);
  const idiomas = await createOfferingSchool(h, { niche: "Idiomas", name: "Colégio Horizonte" });
  const clube = await createOfferingSchool(h, { niche: "Clubes", name: "Clube Água Viva" });
  const tech = await createOfferingSchool(h, { niche: "Tecnologia", name: "Escola Maker São João" });
  ids.ingles = (await createDiscount(h, idiomas.id, { className: "Inglês Avançado", monthlyFee: 300, percentage: 20 })).id;
  ids.natacao = (await createDiscount(h, clube.id, { className: "Natação Infantil", monthlyFee: 250, percentage: 50 })).id;
  ids.robotica = (await createDiscount(h, tech.id, { className: "Robótica Júnior", monthlyFee: 500, percentage: 10 })).id;
  ids.turma = (await createDiscount(h, tech.id, { className: "Turma da Tarde", monthlyFee: 200, percentage: 30 })).id;
}, 60_000);
afterAll(() => h.close());

async function found(q: string) {
  return (await api.marketplace.list({ q, limit: 100 })).items.map((i) => i.discountId);
}

describe("marketplace search (issue 31)", () => {
  it("finds Inglês, Natação and Robótica typed without accents, in any case, or with a typo", async () => {
    for (const q of ["ingles", "INGLÊS", "Ingles avancado", "ingels", "ingls"]) expect(await found(q), q).toEqual([ids.ingles]);
    for (const q of ["natacao", "Natação", "natacão infantil", "natcao"]) expect(await found(q), q).toEqual([ids.natacao]);
    for (const q of ["robotica", "ROBÓTICA", "robotca", "robotica junior"]) expect(await found(q), q).toEqual([ids.robotica]);
  });

  it("finds by school name and leaves out what does not match every word", async () => {
    expect(await found("horizonte")).toEqual([ids.ingles]);
    expect(await found("agua viva")).toEqual([ids.natacao]);
    expect((await found("sao joao")).sort()).toEqual([ids.robotica, ids.turma].sort());
    expect(await found("sao joao tarde")).toEqual([ids.turma]);
    expect(await found("xadrez")).toEqual([]);
    expect(await found("ingles natacao")).toEqual([]);
  });

  it("treats LIKE's wildcards and quotes as plain text", async () => {
    expect(await found("%")).toEqual([]);
    expect(await found("_")).toEqual([]);
    expect(await found("' or 1=1 --")).toEqual([]);
  });

  it("combines the search with the other filters and sorts, and pages with the sort's own cursor", async () => {
    const { categoryId } = await nicheIds(h, "Tecnologia");
    const tech = await api.marketplace.list({ category: categoryId, sort: "fee", limit: 1, facets: true });
    expect(tech.items.map((i) => i.discountId)).toEqual([ids.turma]);
    expect(tech.facets?.total).toBe(2);
    expect(tech.facets?.categories.find((c) => c.id === categoryId)).toMatchObject({ name: "Tecnologia", count: 2 });
    const next = await api.marketplace.list({ category: categoryId, sort: "fee", limit: 1, cursor: tech.nextCursor });
    expect(next.items.map((i) => i.discountId)).toEqual([ids.robotica]);
    expect(next.nextCursor).toBeNull();
    // A cursor belongs to its order.
    await expect(api.marketplace.list({ category: categoryId, sort: "discount", cursor: tech.nextCursor })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(fm.invalidCursorForSort),
    });
    const cheap = await api.marketplace.list({ maxFee: 150, facets: true });
    expect(cheap.items.map((i) => i.discountId).sort()).toEqual([ids.natacao, ids.turma].sort());
    expect(cheap.facets?.without).toEqual({ maxFee: 4 });
    const byDiscount = await api.marketplace.list({ sort: "discount" });
    expect(byDiscount.items.map((i) => i.discountPercentage)).toEqual([50, 30, 20, 10]);
  });

  it("counts the facets in one more statement, only when asked", async () => {
    const statements = countStatements(h.db);
    try {
      await api.marketplace.list({ q: "ingles", maxFee: 400, withSlots: true });
      expect(statements.count()).toBe(1);
      await api.marketplace.list({ q: "ingles", maxFee: 400, withSlots: true, facets: true });
      expect(statements.count()).toBe(3);
    } finally {
      statements.restore();
    }
  });
});

describe("marketplace parameters (issue 31)", () => {
  const bad = async (input: Record<string, unknown>, message: string) => {
    await expect(api.marketplace.list(input as never), JSON.stringify(input)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(message) });
  };
  it("refuses invalid filters with a Portuguese message", async () => {
    await bad({ maxFee: -1 }, fm.invalidMaxFee);
    await bad({ maxFee: 10.001 }, fm.invalidMaxFee);
    await bad({ maxFee: "200" }, fm.invalidMaxFee);
    await bad({ minDiscount: 101 }, fm.invalidMinDiscount);
    await bad({ where: "planet" }, fm.invalidWhere);
    await bad({ access: "everything" }, fm.invalidAccess);
    await bad({ sort: "random" }, fm.invalidSort);
    await bad({ withSlots: "yes" }, fm.invalidFlag);
    await bad({ q: "a".repeat(101) }, fm.searchTooLong(100));
    await bad({ q: "a\u0000b" }, "");
    await bad({ category: -3 }, "");
    const idiomas = await nicheIds(h, "Idiomas");
    const clubes = await nicheIds(h, "Clubes");
    await bad({ category: idiomas.categoryId, modality: clubes.modalityId }, fm.invalidModality);
    await bad({ cursor: "bm90LW91cnM" }, m.invalidCursor);
    await bad({ cursor: "não é um cursor" }, m.invalidCursor);
    for (const limit of [0, 101, 2.5, "24"]) await bad({ limit }, fm.invalidLimit(100));
  });

  it("takes an empty search as no search, and no input as before", async () => {
    expect((await api.marketplace.list({ q: "   " })).items).toHaveLength(4);
    expect((await api.marketplace.list()).items).toHaveLength(4);
  });
});

describe("filtered statements built once per shape (decision 215)", () => {
  /** The statements' texts and parameters sent while armed (postgres.js only; PGlite builds each request's own). */
  function sentStatements() {
    const client = (h.db as { $client?: { unsafe?: (...a: unknown[]) => unknown } }).$client;
    if (!client?.unsafe) return null;
    const spy = vi.spyOn(client as { unsafe: (...a: unknown[]) => unknown }, "unsafe");
    return { texts: () => spy.mock.calls.map((c) => c[0] as string), restore: () => spy.mockRestore() };
  }
  const sorted = (page: { items: Array<{ discountId: string }> }) => page.items.map((i) => i.discountId).sort();

  it("serves each request of a shape its own values and viewer, and each shape its own statement", async () => {
    // A second parent who has claimed Natação: a viewer baked into a statement shows on the other's cards.
    const other = await h.caller((await eligibleParent(h)).id);
    await other.claim.create({ discountId: ids.natacao! });
    const sent = sentStatements();
    try {
      // Same shape ({ maxFee }), other values and other viewers, alternating.
      const rounds = [
        [api, { maxFee: 150 }, [ids.natacao, ids.turma], false],
        [other, { maxFee: 250 }, [ids.ingles, ids.natacao, ids.turma], true],
        [api, { maxFee: 250 }, [ids.ingles, ids.natacao, ids.turma], false],
        [other, { maxFee: 150 }, [ids.natacao, ids.turma], true],
      ] as const;
      for (const [who, filters, expected, claimed] of rounds) {
        const page = await who.marketplace.list(filters);
        expect(sorted(page), JSON.stringify(filters)).toEqual([...expected].sort());
        expect(page.items.find((i) => i.discountId === ids.natacao)?.claimed).toBe(claimed);
      }
      // Same shape (one search word): each search its own words, never the first one's.
      for (const [q, id] of [["ingles", ids.ingles], ["natacao", ids.natacao], ["robotica", ids.robotica], ["ingles", ids.ingles]] as const) {
        expect(sorted(await api.marketplace.list({ q })), q).toEqual([id]);
      }
      expect(sorted(await api.marketplace.list({ q: "sao joao" }))).toEqual([ids.robotica, ids.turma].sort());
      expect(sorted(await api.marketplace.list({ q: "sao tarde" }))).toEqual([ids.turma]);
      // One filter more is another shape, with its own statement.
      expect(sorted(await api.marketplace.list({ maxFee: 250, minDiscount: 25 }))).toEqual([ids.natacao, ids.turma].sort());
      expect(sorted(await api.marketplace.list({ maxFee: 250, minDiscount: 25, category: (await nicheIds(h, "Clubes")).categoryId }))).toEqual([ids.natacao]);
      // Next pages: the same shape with each page's own cursor walks every card once.
      for (const who of [api, other]) {
        const walked: string[] = [];
        let cursor: string | null | undefined;
        do {
          const page = await who.marketplace.list({ maxFee: 250, sort: "fee", limit: 1, cursor });
          walked.push(...page.items.map((i) => i.discountId));
          cursor = page.nextCursor;
        } while (cursor);
        expect(walked).toEqual([ids.natacao, ids.turma, ids.ingles]);
      }
      // The facet counts: a chosen fee outside the steps takes its place among them, each request its own.
      const fees = async (maxFee: number) => (await api.marketplace.list({ maxFee, facets: true })).facets!;
      const at150 = await fees(150);
      const at260 = await fees(260);
      expect(at150.fees.map((f) => f.max)).toContain(150);
      expect(at150.fees.map((f) => f.max)).not.toContain(260);
      expect(at260.fees.find((f) => f.max === 260)?.count).toBe(3);
      expect([at150.total, at260.total, at150.without, at260.without]).toEqual([2, 3, { maxFee: 4 }, { maxFee: 4 }]);

      if (sent) {
        const texts = sent.texts();
        const page = (i: number) => texts[i]!;
        // The four { maxFee } pages sent one text; the two shapes with a filter more, two others.
        expect(new Set(texts.slice(0, 4)).size).toBe(1);
        expect(new Set(texts.slice(4, 8)).size).toBe(1);
        expect(page(0)).not.toBe(page(4));
        // Two search words: the same text for any two words, another than one word's.
        expect(page(8)).toBe(page(9));
        expect(page(8)).not.toBe(page(4));
        expect(new Set([page(0), page(10), page(11)]).size).toBe(3);
      }
    } finally {
      sent?.restore();
    }
  });
});
