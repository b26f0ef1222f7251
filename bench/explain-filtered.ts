/**
 * EXPLAIN ANALYZE of /home's filtered pages and facet counts (issue 31, decisions 170-173), as the
 * app sends them, for the parent whose city has the most offers:
 *   DATABASE_URL=<a database filled by db:generate-scale> npx tsx bench/explain-filtered.ts
 * For every sort, with and without a search: the page statement's time and buffers, the most
 * rows any scan of marketplace_offers returned, and whether a Sort node read more than a page (a
 * sort that materialises a key's matches); then the facet statement's time.
 */
import postgres from "postgres";
import { MARKETPLACE_SORTS, type MarketplaceFilters } from "@elo/shared";
import { createSqlCapture } from "./lib/capture";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const sql = postgres(url, { max: 1, onnotice: () => {} });
const capture = await createSqlCapture(url, "http://127.0.0.1:3000");

// The parent of a school of the city with most offers under its city key (a capital).
const [parent] = await sql<[{ id: string; city: string; offers: number }]>`
  select p.user_id as id, s.city, (select count(*)::int from marketplace_offers o
    where o.place_key = (marketplace_viewer_keys(s.city_id, s.uf, s.city, s.neighborhood_id, s.neighborhood))[2]) as offers
  from profiles p join schools s on s.id = p.school_id join categories c on c.id = s.category_id
  where p.profile_type = 'parent' and c.name = 'Ed. Básica' and s.city in ('São Paulo', 'Rio de Janeiro')
  order by 3 desc, p.user_id limit 1`;
const [idiomas] = await sql<[{ id: number }]>`select id from categories where name = 'Idiomas'`;
console.log(`Parent ${parent.id} (${parent.city}, ${parent.offers} offers under the city key)\n`);

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  Plans?: PlanNode[];
}
function walk(node: PlanNode, visit: (n: PlanNode) => void) {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

async function explain(statement: { query: string; params: unknown[] }) {
  const [row] = await sql.unsafe(`explain (analyze, buffers, format json) ${statement.query}`, statement.params as never[]);
  const plan = (row as unknown as { "QUERY PLAN": Array<{ Plan: PlanNode & { "Shared Hit Blocks": number; "Shared Read Blocks": number }; "Execution Time": number }> })["QUERY PLAN"][0]!;
  let maxScan = 0;
  let maxSortInput = 0;
  const indexes = new Set<string>();
  walk(plan.Plan, (n) => {
    if (n["Relation Name"] === "marketplace_offers") {
      maxScan = Math.max(maxScan, n["Actual Rows"] * n["Actual Loops"]);
      if (n["Index Name"]) indexes.add(n["Index Name"]);
    }
    if (n["Node Type"] === "Sort") for (const c of n.Plans ?? []) maxSortInput = Math.max(maxSortInput, c["Actual Rows"] * c["Actual Loops"]);
  });
  return { ms: plan["Execution Time"], buffers: plan.Plan["Shared Hit Blocks"] + plan.Plan["Shared Read Blocks"], maxScan, maxSortInput, indexes: [...indexes].join(", ") };
}

const base: MarketplaceFilters = { category: idiomas.id, maxFee: 400 };
console.log("| sort | filters | search | cards | time ms (best of 5) | buffers | most rows from one scan of marketplace_offers | largest Sort input | indexes |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const sort of MARKETPLACE_SORTS) {
  for (const [filters, q] of [[false, undefined], [false, "ingles"], [true, undefined], [true, "ingles"]] as const) {
    const f: MarketplaceFilters = { ...(filters ? base : {}), sort, ...(q ? { q } : {}) };
    const page = await capture.record(parent.id, (c) => c.marketplace.list(f));
    const main = page.statements.at(-1)!;
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await explain(main));
    const best = runs.sort((a, b) => a.ms - b.ms)[0]!;
    console.log(`| ${sort} | ${filters ? "Idiomas, até R$ 400" : "-"} | ${q ?? "-"} | ${page.result.items.length} | ${best.ms.toFixed(2)} | ${best.buffers} | ${best.maxScan} | ${best.maxSortInput} | ${best.indexes} |`);
  }
}
for (const q of [undefined, "ingles"]) {
  const f: MarketplaceFilters = { ...base, ...(q ? { q } : {}) };
  const plain = await capture.record(parent.id, (c) => c.marketplace.list(f));
  const withFacets = await capture.record(parent.id, (c) => c.marketplace.list({ ...f, facets: true }));
  const pageSql = new Set(plain.statements.map((s) => s.query));
  const extra = withFacets.statements.filter((s) => !pageSql.has(s.query));
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await explain(extra[0]!));
  const best = runs.sort((a, b) => a.ms - b.ms)[0]!;
  const median = runs[2]!;
  console.log(`\nFacet statement (${q ? `search "${q}"` : "no search"}): ${extra.length} extra statement(s), ${best.ms.toFixed(2)} ms best, ${median.ms.toFixed(2)} ms median of 5, ${best.buffers} buffers`);
}
await capture.close();
await sql.end();
