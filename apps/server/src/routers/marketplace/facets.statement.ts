import type { MarketplaceWhere } from "@elo/shared";
import { sql, type SQL } from "drizzle-orm";
import type { BoundAll } from "../../db/placeholders";
import type { Bound } from "../../db/raw";
import { admittedToViewer, allAdmittedOffers, allOf, claimableOffer, offerFilters, whereFilter, type OfferFilterKey } from "./offers";
import { filterParams, viewerCtes, type FilterValues, type StatementShape } from "./page.statement";

interface FacetOption {
  id: number;
  name: string;
  count: number;
}

/**
 * What each filter would leave (decision 170), for the parent's own rules: the admitted offers of
 * the parent's keys (the same rules as the page), and for each facet the count with every other
 * filter applied. `without[k]`: the count if filter k were removed (the empty state's advice).
 */
export interface MarketplaceFacets {
  total: number;
  categories: FacetOption[];
  /** The chosen niche's modalities (empty when no niche is chosen). */
  modalities: FacetOption[];
  /** "Minha cidade" counts the neighborhood's benefits too (decision 171). */
  where: Record<MarketplaceWhere, number>;
  /** "até R$ …": MARKETPLACE_FEE_STEPS and the chosen maxFee, each with the count it would leave. */
  fees: Array<{ max: number; count: number }>;
  /** "pelo menos …%": MARKETPLACE_DISCOUNT_STEPS and the chosen minDiscount, likewise. */
  discounts: Array<{ min: number; count: number }>;
  withSlots: number;
  access: { open: number; claimable: number };
  without: Partial<Record<OfferFilterKey | "where", number>>;
}

/** What the facet counts' statement takes per request: values (PGlite, transactions) or placeholders (built once). */
export interface FacetValues {
  userId: string;
  today: string;
  filters: FilterValues;
  /** The fee steps with the chosen maxFee among them (stepsWith), then the discount steps likewise. */
  fees: number[];
  discounts: number[];
}

/** The names the facets' statement writes as text parameters of its own (never a request's value). */
export const FACET_NAMES: ReadonlySet<unknown> = new Set(["q", "category", "modality", "maxFee", "minDiscount", "withSlots", "access", "where", "max", "min"]);

/** The facet counts' one statement (decision 170): every count over the admitted offers `f`. */
export function facetsStatement(v: BoundAll<FacetValues>, shape: Omit<StatementShape, "sort" | "limit">): SQL {
  const { userId, filters } = v;
  const preds = offerFilters(filterParams(filters, shape), userId);
  const all: Partial<Record<OfferFilterKey | "where", SQL>> = { ...preds };
  if (preds.q) all.q = sql`i.q_match`;
  if (shape.where) all.where = whereFilter(shape.where);
  const but = (...skip: (OfferFilterKey | "where")[]) => allOf(Object.entries(all).filter(([k]) => !skip.includes(k as OfferFilterKey)).map(([, p]) => p));
  const without = Object.keys(all).map(
    (k) => sql`${k}::text, (select count(*) from f i where ${k === "category" ? but("category", "modality") : but(k as OfferFilterKey)})`,
  );
  const modalities =
    filters.category !== undefined
      ? sql`(select coalesce(json_agg(json_build_object('id', m.id, 'name', m.name, 'count', coalesce(x.n, 0)) order by m.name), '[]'::json)
          from modalities m left join (select i.modality_id, count(*) as n from f i where ${but("modality")} group by 1) x on x.modality_id = m.id
          where m.category_id = ${filters.category})`
      : sql`'[]'::json`;
  const steps = (name: string, values: Bound<number>[], pass: (v: Bound<number>) => SQL) =>
    sql.join(values.map((s) => sql`json_build_object(${name}::text, ${s}::numeric, 'count', count(*) filter (where ${pass(s)}))`), sql`, `);
  return sql`
    with ${viewerCtes(userId, v.today)},
    f as (${allAdmittedOffers({
      admitted: admittedToViewer(userId),
      search: preds.q,
      where: shape.where,
      // The niche and its modality are one facet (the niche's count leaves out both).
      others: [
        allOf([preds.category, preds.modality].filter((p): p is SQL => p !== undefined)),
        ...(["maxFee", "minDiscount", "withSlots", "access"] as const).flatMap((k) => (preds[k] ? [preds[k]] : [])),
      ],
    })})
    select json_build_object(
      'total', (select count(*) from f i where ${but()}),
      'categories', (select coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'count', coalesce(x.n, 0)) order by c.id), '[]'::json)
        from categories c left join (select i.category_id, count(*) as n from f i where ${but("category", "modality")} group by 1) x on x.category_id = c.id),
      'modalities', ${modalities},
      'where', (select json_build_object('neighborhood', count(*) filter (where i.scope = 'neighborhood'), 'city', count(*) filter (where i.scope in ('city', 'neighborhood')),
          'network', count(*) filter (where i.scope = 'network')) from f i where ${but("where")}),
      'fees', (select json_build_array(${steps("max", v.fees, (s) => sql`i.discounted_fee <= ${s}`)})
        from f i where ${but("maxFee")}),
      'discounts', (select json_build_array(${steps("min", v.discounts, (s) => sql`i.discount_percentage >= ${s}`)})
        from f i where ${but("minDiscount")}),
      'withSlots', (select count(*) from f i where ${but("withSlots")} and not i.sold_out),
      'access', (select json_build_object('open', count(*) filter (where not i.requires_verified), 'claimable', count(*) filter (where ${claimableOffer(userId)}))
        from f i where ${but("access")}),
      'without', json_build_object(${without.length ? sql.join(without, sql`, `) : sql``})
    ) as facets`;
}
