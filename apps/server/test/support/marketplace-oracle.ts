import { MARKETPLACE_DISCOUNT_STEPS, MARKETPLACE_FEE_STEPS, stepsWith, type MarketplaceFilters, type MarketplaceWhere } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../src/db/raw";
import { admittedBy } from "../../src/routers/marketplace/visibility";
import { mainEnrollmentVerified } from "../../src/routers/verification/verified";
import type { Harness } from "./harness";

type Api = Awaited<ReturnType<Harness["caller"]>>;

export interface SeenCard {
  id: string;
  gold: boolean;
}

/**
 * What DECISIONS.md's rules admit for one parent, in page order (Gold first, newest, id): the
 * rules as visibility.ts words them for the claim, checked on every active benefit, with the Gold
 * flag read from the plans. The oracle the read model (decision 145) is compared with.
 */
export async function admittedInPageOrder(h: Pick<Harness, "db">, userId: string): Promise<SeenCard[]> {
  return queryRows<SeenCard>(
    h.db,
    sql`
    select d.id, exists (select 1 from subscriptions g where g.school_id = s.id and g.status = 'active' and g.plan_type = 'gold') as gold
    from discounts d
    join schools s on s.id = d.school_id
    cross join (select sc.* from profiles p join schools sc on sc.id = p.school_id where p.user_id = ${userId} and p.profile_type = 'parent') ms
    where d.status = 'active' and ${admittedBy(userId)}
    order by gold desc, d.created_at desc, d.id`,
  );
}

/** Every card marketplace.list shows the caller, page after page of `limit`. */
export async function listedInPageOrder(api: Api, limit: number): Promise<SeenCard[]> {
  const cards: SeenCard[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await api.marketplace.list({ cursor, limit });
    cards.push(...page.items.map((i) => ({ id: i.discountId, gold: i.gold })));
    cursor = page.nextCursor;
    if (!cursor) return cards;
  }
  throw new Error("more than 1000 pages");
}

/** Rows of marketplace_offers that its view does not have (extra) or that it lacks (missing): none when in step. */
export async function readModelDrift(h: Pick<Harness, "db">) {
  const columns = sql.raw(
    "school_id, discount_id, place_key, gold, created_at, niche_id, category_id, modality_id, discounted_fee, discount_percentage, sold_out, requires_verified, search_text",
  );
  return queryRows<{ drift: string; discount_id: string; place_key: string }>(
    h.db,
    sql`
    (select 'missing' as drift, ${columns} from marketplace_offers_expected except select 'missing', ${columns} from marketplace_offers)
    union all
    (select 'extra', ${columns} from marketplace_offers except select 'extra', ${columns} from marketplace_offers_expected)`,
  );
}

/** One benefit the rules admit for a parent, with what the filters and sorts read (issue 31's oracle). */
export interface AdmittedOffer {
  id: string;
  gold: boolean;
  categoryId: number;
  modalityId: number;
  fee: number;
  pct: number;
  soldOut: boolean;
  requiresVerified: boolean;
  scope: MarketplaceWhere;
  /** Position in "newest first, then id" among the admitted. */
  newRank: number;
  claimable: boolean;
  matches: boolean;
}

/**
 * Every benefit the rules admit for the parent (visibility.ts's text over the discounts table, as
 * admittedInPageOrder), with its attributes read straight from discounts and schools, not from the
 * read model; `matches` is the search function's answer for `q` on the benefit's own names.
 */
export async function admittedOffers(h: Pick<Harness, "db">, userId: string, q: string | undefined, today: string): Promise<AdmittedOffer[]> {
  const rows = await queryRows<AdmittedOffer & { fee: string; pct: string }>(
    h.db,
    sql`
    select d.id, exists (select 1 from subscriptions g where g.school_id = s.id and g.status = 'active' and g.plan_type = 'gold') as gold,
      d.category_id as "categoryId", d.modality_id as "modalityId", d.discounted_fee as fee, d.discount_percentage as pct,
      d.number_of_students = 0 as "soldOut", d.requires_verified_enrollment as "requiresVerified",
      case d.discount_scope when 'all_except_own' then 'network' else d.discount_scope::text end as scope,
      (row_number() over (order by d.created_at desc, d.id))::int as "newRank",
      (d.number_of_students > 0 and not exists (select 1 from claimed_discounts c where c.user_id = ${userId} and c.discount_id = d.id)
        and (not d.requires_verified_enrollment or ${mainEnrollmentVerified(userId, today, sql.raw("pp"))})) as claimable,
      ${q === undefined ? sql`true` : sql`marketplace_search_matches(marketplace_fold(d.class_name || ' ' || m.name || ' ' || s.name), ${q})`} as matches
    from discounts d
    join schools s on s.id = d.school_id
    join modalities m on m.id = d.modality_id
    cross join (select sc.* from profiles p join schools sc on sc.id = p.school_id where p.user_id = ${userId} and p.profile_type = 'parent') ms
    cross join (select p.school_id from profiles p where p.user_id = ${userId}) pp
    where d.status = 'active' and ${admittedBy(userId)}`,
  );
  return rows.map((r) => ({ ...r, fee: Number(r.fee), pct: Number(r.pct) }));
}

/** "Minha cidade" takes the city's and the neighborhood's benefits (decision 171); the others their own scope. */
const inWhere = (o: AdmittedOffer, where: MarketplaceWhere) => o.scope === where || (where === "city" && o.scope === "neighborhood");

type FilterKey = "q" | "category" | "modality" | "maxFee" | "minDiscount" | "withSlots" | "access" | "where";

/** Each active filter as a test on an admitted offer. */
export function filterTests(f: MarketplaceFilters): Partial<Record<FilterKey, (o: AdmittedOffer) => boolean>> {
  const t: Partial<Record<FilterKey, (o: AdmittedOffer) => boolean>> = {};
  if (f.q) t.q = (o) => o.matches;
  if (f.category !== undefined) t.category = (o) => o.categoryId === f.category;
  if (f.modality !== undefined) t.modality = (o) => o.modalityId === f.modality;
  if (f.maxFee !== undefined) t.maxFee = (o) => o.fee <= f.maxFee!;
  if (f.minDiscount !== undefined) t.minDiscount = (o) => o.pct >= f.minDiscount!;
  if (f.withSlots) t.withSlots = (o) => !o.soldOut;
  if (f.access === "open") t.access = (o) => !o.requiresVerified;
  if (f.access === "claimable") t.access = (o) => o.claimable;
  if (f.where) t.where = (o) => inWhere(o, f.where!);
  return t;
}

const passes = (tests: Partial<Record<FilterKey, (o: AdmittedOffer) => boolean>>, o: AdmittedOffer, skip: FilterKey[] = []) =>
  Object.entries(tests).every(([k, test]) => skip.includes(k as FilterKey) || test(o));

const SCOPE_RANK: Record<MarketplaceWhere, number> = { neighborhood: 0, city: 1, network: 2 };

/** The oracle's page order for a sort: its first key, then newest, then id. */
export function oracleList(offers: AdmittedOffer[], f: MarketplaceFilters): string[] {
  const tests = filterTests(f);
  const first: (o: AdmittedOffer) => number = {
    default: (o: AdmittedOffer) => (o.gold ? 0 : 1),
    discount: (o: AdmittedOffer) => -o.pct,
    fee: (o: AdmittedOffer) => o.fee,
    scope: (o: AdmittedOffer) => SCOPE_RANK[o.scope],
    newest: () => 0,
  }[f.sort ?? "default"];
  return offers
    .filter((o) => passes(tests, o))
    .sort((a, b) => first(a) - first(b) || a.newRank - b.newRank)
    .map((o) => o.id);
}

/** The facet counts the oracle expects (only the non-zero options of each facet). */
export function oracleFacets(offers: AdmittedOffer[], f: MarketplaceFilters) {
  const tests = filterTests(f);
  const count = (skip: FilterKey[], extra: (o: AdmittedOffer) => boolean = () => true) => offers.filter((o) => passes(tests, o, skip) && extra(o)).length;
  const group = (skip: FilterKey[], key: (o: AdmittedOffer) => number) => {
    const out: Record<number, number> = {};
    for (const o of offers) if (passes(tests, o, skip)) out[key(o)] = (out[key(o)] ?? 0) + 1;
    return out;
  };
  const without: Record<string, number> = {};
  for (const k of Object.keys(tests) as FilterKey[]) without[k] = count(k === "category" ? ["category", "modality"] : [k]);
  return {
    total: count([]),
    categories: group(["category", "modality"], (o) => o.categoryId),
    modalities: f.category === undefined ? {} : group(["modality"], (o) => o.modalityId),
    where: {
      neighborhood: count(["where"], (o) => o.scope === "neighborhood"),
      city: count(["where"], (o) => inWhere(o, "city")),
      network: count(["where"], (o) => o.scope === "network"),
    },
    fees: stepsWith(MARKETPLACE_FEE_STEPS, f.maxFee).map((max) => ({ max, count: count(["maxFee"], (o) => o.fee <= max) })),
    discounts: stepsWith(MARKETPLACE_DISCOUNT_STEPS, f.minDiscount).map((min) => ({ min, count: count(["minDiscount"], (o) => o.pct >= min) })),
    withSlots: count(["withSlots"], (o) => !o.soldOut),
    access: { open: count(["access"], (o) => !o.requiresVerified), claimable: count(["access"], (o) => o.claimable) },
    without,
  };
}

/** The server's facets in the oracle's shape (options with a zero count left out). */
export function facetsAsOracle(facets: {
  total: number;
  categories: Array<{ id: number; count: number }>;
  modalities: Array<{ id: number; count: number }>;
  where: unknown;
  fees: unknown;
  discounts: unknown;
  withSlots: number;
  access: unknown;
  without: unknown;
}) {
  const nonZero = (list: Array<{ id: number; count: number }>) => Object.fromEntries(list.filter((c) => c.count > 0).map((c) => [c.id, c.count]));
  return { ...facets, categories: nonZero(facets.categories), modalities: nonZero(facets.modalities) };
}

/** Every card marketplace.list shows with these filters, page after page of `limit`, and the first page's facets. */
export async function listedWithFilters(api: Api, f: MarketplaceFilters, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let facets: unknown = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await api.marketplace.list({ ...f, cursor, limit, facets: cursor === null });
    if (cursor === null) facets = page.facets;
    ids.push(...page.items.map((i) => i.discountId));
    cursor = page.nextCursor;
    if (!cursor) return { ids, facets };
  }
  throw new Error("more than 1000 pages");
}
