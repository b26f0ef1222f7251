import type { Database } from "@elo/db";
import { MARKETPLACE_DISCOUNT_STEPS, MARKETPLACE_FEE_STEPS, stepsWith, type MarketplaceFilters, type MarketplaceSort } from "@elo/shared";
import { namedValues, placeholdersFor, splitParams } from "../../db/placeholders";
import { buildQuery, canRunBuilt, queryBuilt, queryRows, type BuiltQuery } from "../../db/raw";
import type { SortCursor } from "./cursor";
import { FACET_NAMES, facetsStatement, type FacetValues, type MarketplaceFacets } from "./facets.statement";
import { searchWords } from "./offers";
import { pageStatement, type FilterValues, type ListRow, type PageValues, type StatementShape } from "./page.statement";

/** One marketplace.list request as its statements see it. */
export interface ListRequest {
  userId: string;
  /** São Paulo's day (the main enrollment's verification is valid on it). */
  today: string;
  filters: MarketplaceFilters;
  sort: MarketplaceSort;
  cursor: SortCursor | null;
  limit: number;
}

/**
 * The page's statement (decision 213, 215): on postgres.js outside a transaction, the statement of
 * the request's shape (which filters are present, the search's word count, `where`, `access`,
 * `withSlots`, the sort, the page size, whether there is a cursor), built once with placeholders
 * and run with this request's values; elsewhere (PGlite, transactions) built with the values.
 */
export function listPage(db: Database, r: ListRequest): Promise<ListRow[]> {
  const shape: StatementShape = { sort: r.sort, limit: r.limit, where: r.filters.where, withSlots: r.filters.withSlots, access: r.filters.access };
  const c = r.cursor;
  const values: PageValues = {
    userId: r.userId,
    today: r.today,
    filters: filterValues(r.filters),
    cursor: c ? { key: r.sort === "default" ? c.key === "1" : c.key, createdAt: c.createdAt, id: c.id } : undefined,
  };
  if (!canRunBuilt(db)) return queryRows<ListRow>(db, pageStatement(values, shape), { prepare: true });
  const { named, shape: form } = namedValues(values);
  const key = `${shape.sort}:${shape.limit}:${flags(shape)}|${form}`;
  const built = cached(pages, key, () => checked(buildQuery(pageStatement(placeholdersFor(values), shape)), named, (p) => p === shape.limit + 1));
  return queryBuilt<ListRow>(db, built, named);
}

/** The facet counts' statement (decision 170), built once per shape like the page's. */
export async function countFacets(db: Database, r: ListRequest): Promise<MarketplaceFacets> {
  const shape = { where: r.filters.where, withSlots: r.filters.withSlots, access: r.filters.access };
  const values: FacetValues = {
    userId: r.userId,
    today: r.today,
    filters: filterValues(r.filters),
    fees: stepsWith(MARKETPLACE_FEE_STEPS, r.filters.maxFee),
    discounts: stepsWith(MARKETPLACE_DISCOUNT_STEPS, r.filters.minDiscount),
  };
  let rows: Array<{ facets: MarketplaceFacets }>;
  if (!canRunBuilt(db)) {
    rows = await queryRows(db, facetsStatement(values, shape), { prepare: true });
  } else {
    const { named, shape: form } = namedValues(values);
    const built = cached(facets, `${flags(shape)}|${form}`, () => checked(buildQuery(facetsStatement(placeholdersFor(values), shape)), named, (p) => FACET_NAMES.has(p)));
    rows = await queryBuilt(db, built, named);
  }
  return rows[0]!.facets;
}

const filterValues = (f: MarketplaceFilters): FilterValues => ({
  words: searchWords(f.q),
  category: f.category,
  modality: f.modality,
  maxFee: f.maxFee,
  minDiscount: f.minDiscount,
});

const flags = (s: Pick<StatementShape, "where" | "withSlots" | "access">) => `${s.where ?? ""}:${s.access ?? ""}:${s.withSlots ? 1 : 0}`;

/**
 * The statements built so far, by shape. The shapes are finite (7 filters present or not, 3 places,
 * 2 accesses, 5 sorts, the page sizes, up to 50 search words) but many; a shape seldom used is
 * dropped past the cap, the least recently used first, and built again when it comes back.
 */
const CACHE_MAX = 300;
const pages = new Map<string, BuiltQuery>();
const facets = new Map<string, BuiltQuery>();

function cached(cache: Map<string, BuiltQuery>, key: string, build: () => BuiltQuery): BuiltQuery {
  let built = cache.get(key);
  if (built) {
    cache.delete(key);
  } else {
    built = build();
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, built);
  return built;
}

/**
 * A statement built once serves every later request of its shape: a value of the request written
 * in it as a fixed parameter (a viewer's id, a search word, a fee) would serve that value to all of
 * them. Refused when built: each of the request's values must be there as its placeholder, and the
 * only fixed parameters are those the statement writes itself (`ownFixed`: the page's limit + 1,
 * the facets' names).
 */
function checked(built: BuiltQuery, named: Record<string, unknown>, ownFixed: (p: unknown) => boolean): BuiltQuery {
  const { names, fixed } = splitParams(built.params);
  const missing = Object.keys(named).filter((n) => !names.has(n));
  if (missing.length || !fixed.every(ownFixed)) throw new Error(`a marketplace statement built once must take every value as a placeholder (missing: ${missing.join(", ") || "none"})`);
  return built;
}
