import { MARKETPLACE_SORTS, type MarketplaceFilters } from "@elo/shared";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/raw";
import { saoPauloDay } from "../../src/lib/calendar";
import { admittedOffers, oracleList } from "../support/marketplace-oracle";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";
import { countStatements } from "../support/statements";

/**
 * Issue 31, decisions 171-174: "Minha cidade" takes the neighborhood's benefits too; the fee and
 * discount options carry their counts, the chosen value among them; and every sort pages in SQL,
 * reading each place key in its index's order until the page is full instead of every row.
 */
let h: Harness;
type Api = Awaited<ReturnType<Harness["caller"]>>;
let api: Api;
let parentId: string;
const ids: Record<string, string> = {};
const BULK = 150;

beforeAll(async () => {
  h = await createHarness();
  const parent = await eligibleParent(h); // Pinheiros, São Paulo
  api = await h.caller(parent.id);
  parentId = parent.id;
  const near = await createOfferingSchool(h, { name: "Escola do Bairro" });
  const far = await createOfferingSchool(h, { name: "Escola da Cidade", neighborhood: "Moema" });
  // After the discount: R$ 180 (10%), R$ 280 (30%), R$ 500 (50%).
  ids.neighborhood = (await createDiscount(h, near.id, { scope: "neighborhood", className: "Inglês do Bairro", monthlyFee: 200, percentage: 10 })).id;
  ids.city = (await createDiscount(h, far.id, { scope: "city", className: "Inglês da Cidade", monthlyFee: 400, percentage: 30 })).id;
  ids.network = (await createDiscount(h, far.id, { scope: "all_except_own", className: "Inglês da Rede", monthlyFee: 1000, percentage: 50 })).id;
}, 60_000);
afterAll(() => h.close());

const listed = async (f: MarketplaceFilters) => (await api.marketplace.list({ ...f, limit: 100 })).items.map((i) => i.discountId).sort();

describe("where, and the fee and discount options (issue 31)", () => {
  it("'Minha cidade' lists the city's and the neighborhood's benefits; 'Meu bairro' and 'Toda a rede' their own", async () => {
    expect(await listed({ where: "neighborhood" })).toEqual([ids.neighborhood]);
    expect(await listed({ where: "city" })).toEqual([ids.neighborhood, ids.city].sort());
    expect(await listed({ where: "network" })).toEqual([ids.network]);
    const { facets } = await api.marketplace.list({ facets: true });
    expect(facets?.where).toEqual({ neighborhood: 1, city: 2, network: 1 });
    // The scope order still puts the neighborhood first, then the city, then the network.
    expect((await api.marketplace.list({ sort: "scope" })).items.map((i) => i.discountId)).toEqual([ids.neighborhood, ids.city, ids.network]);
  });

  it("counts each fee and discount option with the other filters applied, the chosen value among them", async () => {
    const { facets } = await api.marketplace.list({ facets: true });
    expect(facets?.fees).toEqual([
      { max: 200, count: 1 },
      { max: 300, count: 2 },
      { max: 500, count: 3 },
      { max: 800, count: 3 },
      { max: 1000, count: 3 },
      { max: 1500, count: 3 },
    ]);
    expect(facets?.discounts).toEqual([
      { min: 10, count: 3 },
      { min: 20, count: 2 },
      { min: 30, count: 2 },
      { min: 50, count: 1 },
    ]);
    // A value typed by hand is counted too; each facet leaves out only its own filter.
    const chosen = await api.marketplace.list({ maxFee: 250, minDiscount: 5, where: "city", facets: true });
    expect(chosen.items.map((i) => i.discountId)).toEqual([ids.neighborhood]);
    expect(chosen.facets?.fees.slice(0, 3)).toEqual([
      { max: 200, count: 1 },
      { max: 250, count: 1 },
      { max: 300, count: 2 },
    ]);
    expect(chosen.facets?.discounts).toEqual([
      { min: 5, count: 1 },
      { min: 10, count: 1 },
      { min: 20, count: 0 },
      { min: 30, count: 0 },
      { min: 50, count: 0 },
    ]);
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

describe("paging in SQL (decision 173)", () => {
  beforeAll(async () => {
    const school = await createOfferingSchool(h, { name: "Escola Grande", neighborhood: "Lapa" });
    for (let i = 0; i < BULK; i++) {
      await createDiscount(h, school.id, { scope: "city", className: `Inglês ${i}`, monthlyFee: 100 + i * 7, percentage: 5 + (i % 60), slots: 1 + (i % 5) });
    }
    await queryRows(h.db, sql`analyze marketplace_offers`);
  }, 120_000);

  // The plan is PostgreSQL's (read through postgres.js's client); PGlite, `npm test`'s default, has neither.
  it.skipIf(!onRealPostgres()).each(MARKETPLACE_SORTS.flatMap((sort) => [{ sort }, { sort, q: "ingles" }]))("reads each key only up to its page: %o", async (f) => {
    const plan = await explainPage(f as MarketplaceFilters, 5);
    const scans: number[] = [];
    let sorted = 0;
    walk(plan, (n) => {
      if (n["Relation Name"] === "marketplace_offers") scans.push(n["Actual Loops"] * (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0)));
      if (n["Node Type"] === "Sort") for (const c of n.Plans ?? []) sorted = Math.max(sorted, c["Actual Rows"] * c["Actual Loops"]);
    });
    expect(scans.length).toBeGreaterThan(0);
    // The city key holds BULK + 1 offers; a page of 5 reads a handful of each key's, and sorts only the branches' pages.
    expect(Math.max(...scans), JSON.stringify(f)).toBeLessThanOrEqual(12);
    expect(sorted, JSON.stringify(f)).toBeLessThanOrEqual(7 * 2 * 6);
  });

  it("gives the oracle's list, page after page, in every sort", async () => {
    const offers = await admittedOffers(h, parentId, "ingles", saoPauloDay(h.clock.now()));
    for (const sort of MARKETPLACE_SORTS) {
      const all = oracleList(offers, { sort, q: "ingles" });
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await api.marketplace.list({ sort, q: "ingles", limit: 7, cursor });
        paged.push(...page.items.map((i) => i.discountId));
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged, sort).toEqual(all);
      expect(paged.length).toBe(BULK + 3);
    }
  });
});

function walk(node: PlanNode, visit: (n: PlanNode) => void) {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/** EXPLAIN ANALYZE of the statement marketplace.list sends for the page (the last one it sends). */
async function explainPage(f: MarketplaceFilters, limit: number): Promise<PlanNode> {
  const client = (h.db as unknown as { $client: { unsafe: (q: string, p?: unknown[]) => Promise<Array<Record<string, unknown>>> } }).$client;
  const statements = countStatements(h.db);
  let sent: unknown[] | undefined;
  try {
    await api.marketplace.list({ ...f, limit });
    sent = (client.unsafe as unknown as { mock: { calls: unknown[][] } }).mock.calls.at(-1);
  } finally {
    statements.restore();
  }
  const [query, params] = sent as [string, unknown[]];
  // A test database is far too small for the planner to prefer an index (it reads the whole table
  // at once, bench/explain-filtered.ts shows its choice at full scale): with sequential and bitmap
  // scans off, it must still find an index in each sort's order, or sort every row of the key.
  const tx = client as unknown as { begin: <T>(fn: (t: typeof client) => Promise<T>) => Promise<T> };
  const [row] = await tx.begin(async (t) => {
    await t.unsafe("set local enable_seqscan = off");
    await t.unsafe("set local enable_bitmapscan = off");
    return t.unsafe(`explain (analyze, format json) ${query}`, params);
  });
  return (row!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan;
}
