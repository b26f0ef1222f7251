import type { MarketplaceFilters, MarketplaceSort, MarketplaceWhere } from "@elo/shared";
import { sql, type SQL } from "drizzle-orm";
import type { Bound } from "../../db/raw";

/** How many place keys marketplace_viewer_keys returns (migration 0010_marketplace_offers_triggers). */
const VIEWER_KEYS = 7;

/**
 * The benefit's scope as the parent sees it, by place key (marketplace_viewer_keys' order): the
 * whole network's key, the three city keys, the three neighborhood keys. A (benefit, parent) pair
 * meets in at most one key, so the key says the scope (decision 170).
 */
export const KEY_SCOPES: readonly MarketplaceWhere[] = ["network", "city", "city", "city", "neighborhood", "neighborhood", "neighborhood"];
const SCOPE_RANK: Record<MarketplaceWhere, number> = { neighborhood: 0, city: 1, network: 2 };

/**
 * The scopes each "where" takes (decision 171): "Minha cidade" is every benefit of the parent's
 * city, its neighborhood's too, as a parent reads it; "Meu bairro" and "Toda a rede" are exact.
 */
export const WHERE_SCOPES: Record<MarketplaceWhere, readonly MarketplaceWhere[]> = {
  neighborhood: ["neighborhood"],
  city: ["city", "neighborhood"],
  network: ["network"],
};

/** The `where` filter over a relation with a `scope` column (the facets' base). */
export function whereFilter(where: MarketplaceWhere): SQL {
  return sql.raw(`i.scope in (${WHERE_SCOPES[where].map((w) => `'${w}'`).join(", ")})`);
}

/** The filters that read the offer's own columns (alias `i`), each on its own: the facets count "all but one". */
export type OfferFilterKey = "q" | "category" | "modality" | "maxFee" | "minDiscount" | "withSlots" | "access";

/**
 * `claimable`: the parent could claim it now (slots left, not claimed yet, and a verified main
 * enrollment when the benefit requires one); reads the CTE `verified` (one boolean `ok`).
 */
export function claimableOffer(userId: Bound<string>): SQL {
  return sql`(not i.sold_out
    and i.discount_id not in (select c.discount_id from claimed_discounts c where c.user_id = ${userId})
    and (not i.requires_verified or (select ok from verified)))`;
}

/**
 * The filters as the predicates take them: the search as its words (`searchWords`), the numbers as
 * values or placeholders (a statement built once per shape, decision 215). Which filters are
 * present, the search's word count, `withSlots` and `access` make the statement's shape.
 */
export interface OfferFilterParams {
  words?: Bound<string>[];
  category?: Bound<number>;
  modality?: Bound<number>;
  maxFee?: Bound<number>;
  minDiscount?: Bound<number>;
  withSlots?: boolean;
  access?: MarketplaceFilters["access"];
}

/** The search's words: what `searchMatches` writes one predicate for; undefined without a search. */
export function searchWords(q: string | undefined): string[] | undefined {
  return q ? q.trim().split(" ").filter((w) => w.trim() !== "") : undefined;
}

/** One SQL predicate per active filter, over the alias `i` (a row of marketplace_offers). */
export function offerFilters(f: OfferFilterParams, userId: Bound<string>): Partial<Record<OfferFilterKey, SQL>> {
  const out: Partial<Record<OfferFilterKey, SQL>> = {};
  if (f.words) out.q = searchMatches(f.words);
  if (f.category !== undefined) out.category = sql`i.category_id = ${f.category}`;
  if (f.modality !== undefined) out.modality = sql`i.modality_id = ${f.modality}`;
  if (f.maxFee !== undefined) out.maxFee = sql`i.discounted_fee <= ${f.maxFee}`;
  if (f.minDiscount !== undefined) out.minDiscount = sql`i.discount_percentage >= ${f.minDiscount}`;
  if (f.withSlots) out.withSlots = sql`not i.sold_out`;
  if (f.access === "open") out.access = sql`not i.requires_verified`;
  if (f.access === "claimable") out.access = claimableOffer(userId);
  return out;
}

/**
 * The search (decision 170's rule, marketplace_search_matches' text) written out per word: every
 * word, folded once (an InitPlan), is in the folded names or has word_similarity >= 0.4 with one of
 * their words. Inline rather than the SQL function, which PostgreSQL cannot inline (it unnests the
 * words in a subquery) and so ran its own executor per row: ~3 times slower (decision 174).
 */
export function searchMatches(words: Bound<string>[]): SQL {
  return allOf(
    words.map((w) => {
      const word = sql`(select marketplace_fold(${w}))`;
      return sql`(strpos(i.search_text, ${word}) > 0 or word_similarity(${word}, i.search_text) >= 0.4)`;
    }),
  );
}

export const allOf = (parts: SQL[]): SQL => (parts.length ? sql.join(parts, sql` and `) : sql`true`);

/**
 * A page's cursor as the statement takes it (values or placeholders): the sort's first key (the
 * Gold flag in the default order, PostgreSQL's numeric text in the others), the last card's
 * creation time and id (cursor.ts' SortCursor).
 */
export interface CursorParams {
  key: Bound<string | boolean>;
  createdAt: Bound<string>;
  id: Bound<string>;
}

/**
 * The first sort key of a page in `sort` for the rows of key number `n` (1-based), its direction,
 * and `split`: the Gold flag splits each key's range in two whose index order is the sort's (the
 * newest and scope orders read marketplace_offers_page_idx past its Gold column, decision 173).
 */
function firstKey(sort: MarketplaceSort, n: number): { key: SQL; desc: boolean; cursorKey: (c: CursorParams) => SQL; split: boolean } {
  const numeric = (c: CursorParams) => sql`${c.key}::numeric`;
  switch (sort) {
    case "discount":
      return { key: sql`i.discount_percentage`, desc: true, cursorKey: numeric, split: false };
    case "fee":
      return { key: sql`i.discounted_fee`, desc: false, cursorKey: numeric, split: false };
    case "scope":
      return { key: sql.raw(`${SCOPE_RANK[KEY_SCOPES[n - 1]!]}::numeric`), desc: false, cursorKey: numeric, split: true };
    case "newest":
      return { key: sql.raw("0::numeric"), desc: true, cursorKey: numeric, split: true };
    default:
      return { key: sql`i.gold`, desc: true, cursorKey: (c) => sql`${c.key}::boolean`, split: false };
  }
}

/**
 * The first `limit` offers after the cursor that a parent may see (decision 145) and that pass the
 * filters (decision 170): for each of the parent's place keys (CTE `keys`, null when the caller has
 * no main school) whose scope `where` admits, one range of the read model, filtered by `admitted`
 * (the rules that depend on the parent) and the filters, cut at `limit`; the page is the first
 * `limit` of their union. Every order reads its ranges in an index's order and stops at the page
 * (decision 173): the default one marketplace_offers_page_idx, newest and scope the same index
 * once per Gold flag, discount and fee their own indexes (migration 0016). Columns: id, school_id,
 * created_at, gold, sort_key (the first sort key, for the next cursor).
 */
export function firstOffers(opts: { cursor: CursorParams | null; admitted: SQL; filters: SQL; where?: MarketplaceWhere; sort: MarketplaceSort; limit: number }): SQL {
  const branches: SQL[] = [];
  let desc = true;
  for (let n = 1; n <= VIEWER_KEYS; n++) {
    if (opts.where && !WHERE_SCOPES[opts.where].includes(KEY_SCOPES[n - 1]!)) continue;
    const first = firstKey(opts.sort, n);
    desc = first.desc;
    const dir = sql.raw(first.desc ? "desc" : "asc");
    const c = opts.cursor;
    const after = c
      ? sql`(${first.key} ${sql.raw(first.desc ? "<" : ">")} ${first.cursorKey(c)}
          or (${first.key} = ${first.cursorKey(c)} and (i.created_at < ${c.createdAt}::timestamptz
            or (i.created_at = ${c.createdAt}::timestamptz and i.discount_id > ${c.id}::uuid))))`
      : sql`true`;
    // `gold = true`, not `gold`: only an equality makes the Gold column a constant of the index's order.
    for (const gold of first.split ? [sql`and i.gold = true`, sql`and i.gold = false`] : [sql``]) {
      branches.push(sql`(select i.discount_id as id, i.school_id, i.created_at, i.gold, ${first.key} as sort_key from marketplace_offers i
      where i.place_key = (select k[${sql.raw(String(n))}] from keys) ${gold} and ${after} and ${opts.admitted} and ${opts.filters}
      order by ${first.split ? sql`` : sql`${first.key} ${dir}, `}i.created_at desc, i.discount_id
      limit ${opts.limit})`);
    }
  }
  const dir = sql.raw(desc ? "desc" : "asc");
  return sql`select * from (${sql.join(branches, sql` union all `)}) i order by i.sort_key ${dir}, i.created_at desc, i.id limit ${opts.limit}`;
}

/** The order of the page's cards over a relation with sort_key, created_at and id (the same as firstOffers'). */
export function pageOrder(sort: MarketplaceSort): SQL {
  const desc = firstKey(sort, 1).desc;
  return sql.raw(`i.sort_key ${desc ? "desc" : "asc"}, i.created_at desc, i.id`);
}

/**
 * Every offer of the parent's keys the rules admit, with its scope: the facet counts' base (one
 * statement, decision 170). Reads only the page index, plus the table for a search. The search's
 * match (`q_match`) is computed here once per offer rather than once per count, and only for the
 * offers that fail at most one of the other filters (`others`, one predicate per facet, the
 * scope's included): every count that applies the search leaves out at most one other filter, so
 * an offer failing two is counted by none of them (decision 174).
 */
export function allAdmittedOffers(opts: { admitted: SQL; search?: SQL; others: SQL[]; where?: MarketplaceWhere }): SQL {
  const branches = KEY_SCOPES.map((scope, idx) => {
    let qMatch = sql`true`;
    if (opts.search) {
      const fails = opts.others.map((p) => sql`(case when ${p} then 0 else 1 end)`);
      if (opts.where && !WHERE_SCOPES[opts.where].includes(scope)) fails.push(sql`1`);
      qMatch = fails.length ? sql`(case when ${sql.join(fails, sql` + `)} <= 1 then ${opts.search} else false end)` : opts.search;
    }
    return sql`(select i.discount_id, i.category_id, i.modality_id, i.discounted_fee, i.discount_percentage, i.sold_out, i.requires_verified,
      ${qMatch} as q_match, ${sql.raw(`'${scope}'::text`)} as scope
      from marketplace_offers i where i.place_key = (select k[${sql.raw(String(idx + 1))}] from keys) and ${opts.admitted})`;
  });
  return sql.join(branches, sql` union all `);
}

/**
 * The rules of DECISIONS.md that depend on the parent and not only on the place, over the alias
 * `i` (an offer) and the CTE `ms` (the parent's main school): rule 2 (another niche), rule 4's
 * "any school but my own" and the parent's other enrollments. Rules 1, 3 and the place part of 4
 * are the read model's (marketplace_offers_expected); visibility.ts says all four for the claim.
 * Written as scalars of `ms`, so the offers stay in index order.
 */
export function admittedToViewer(userId: Bound<string>): SQL {
  return sql`i.niche_id is distinct from (select ms.category_id from ms)
    and i.school_id <> (select ms.id from ms)
    and i.school_id not in (select e.school_id from enrollments e where e.user_id = ${userId} and e.school_id is not null)`;
}
