import { accessMessages, LIMITS, MARKETPLACE_DISCOUNT_STEPS, MARKETPLACE_FEE_STEPS, marketplaceFilterMessages, stepsWith, type DiscountValidity, type MarketplaceFilters, type MarketplaceListInput, type MarketplaceSort, type MarketplaceWhere } from "@elo/shared";
import { Placeholder, sql, type SQL } from "drizzle-orm";
import { AppError } from "../../trpc/errors";
import { buildQuery, canRunBuilt, queryBuilt, queryRows, type BuiltQuery } from "../../db/raw";
import { logoAddress } from "../../storage/logo";
import type { Context } from "../../trpc/init";
import { saoPauloDay } from "../../lib/calendar";
import { mainEnrollmentVerified } from "../verification/verified";
import { decodeSortCursor, encodeSortCursor } from "./cursor";
import { admittedToViewer, allAdmittedOffers, allOf, claimableOffer, firstOffers, offerFilters, pageOrder, whereFilter, type OfferFilterKey } from "./offers";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

interface HelpingSchoolRow {
  id: string;
  name: string;
  logoUrl: string | null;
}

interface BenefitRow {
  discountId: string;
  className: string;
  discountPercentage: number;
  discountValidity: DiscountValidity;
  numberOfStudents: number;
  holdDays: number | null;
  schoolId: string;
  schoolName: string;
  schoolLogoUrl: string | null;
  monthlyFee: number;
  discountedFee: number;
  gold: boolean;
  claimed: boolean;
  waitlist: { status: "waiting" | "offered"; position: number; offerExpiresAt: string | null } | null;
  requiresVerified: boolean;
  createdAt: string;
  sortKey: string | number | boolean;
}

interface ListRow {
  viewer: { profileType: "parent" | "institution"; schoolId: string | null; profileCompleted: boolean; proofSubmitted: boolean; verified: boolean } | null;
  helping: HelpingSchoolRow[] | null;
  items: BenefitRow[] | null;
}

/** Who is looking at /home, which decides the page's state. */
export type MarketplaceViewer =
  | { kind: "no_profile" }
  | { kind: "institution" }
  | { kind: "parent"; hasSchool: boolean; profileCompleted: boolean; proofSubmitted: boolean; enrollmentVerified: boolean };

/**
 * marketplace.list: one page of the benefits the caller may see (DECISIONS.md's four rules), Gold
 * schools first, then newest, then by id (a total order, so keyset pages never skip or repeat);
 * the caller's own claims stay in view marked `claimed`, and sold-out benefits stay in view with the
 * caller's waitlist place, if any (decision 123). One statement (docs/decisions/083, 086, 100, 145):
 * - `keys`: the viewer's place keys in the read model marketplace_offers (active benefits of
 *   Silver/Gold schools, each under the places that see it, with its Gold flag and creation time);
 * - `page`: each key's index range in page order, the rules that depend on the viewer (niche, own
 *   school, enrollments) checked on its entries until the page's limit + 1 pass, the ranges merged:
 *   a page reads about as many entries as it has cards, however many the viewer may see;
 * - `items`: the cards of the page, built from their benefits and schools.
 */
export async function listMarketplace({ ctx, input }: { ctx: AuthedContext; input?: MarketplaceListInput }) {
  const userId = ctx.user.id;
  const limit = input?.limit ?? LIMITS.marketplacePageSize;
  const sort = input?.sort ?? "default";
  const cursor = input?.cursor ? decodeSortCursor(input.cursor, sort) : null;
  const filters: MarketplaceFilters = { ...input, sort };
  if (filters.modality !== undefined && filters.category !== undefined) await checkModality(ctx, filters.category, filters.modality);
  const preds = offerFilters(filters, userId);
  const today = saoPauloDay(ctx.clock.now());
  // The default page (no cursor, no filter: every visit to /home) reuses its statement's text and
  // fills in the viewer and the day; any other page, or PGlite, builds its own (decision 213).
  const listing = isDefaultPage(filters, cursor) && canRunBuilt(ctx.db)
    ? queryBuilt<ListRow>(ctx.db, defaultPageStatement(sort, limit), { userId, today })
    : queryRows<ListRow>(ctx.db, listingStatement({ cursor, filters, preds, sort, limit, userId, today }), { prepare: true });
  // The facet counts: one more statement, only when asked and on the first page (the next pages
  // share the first's filters, so /home asks on every page and pays once).
  const facetsQuery = input?.facets && !cursor ? facetCounts(ctx, viewerCtes(userId, today), filters, preds, userId) : Promise.resolve(null);
  const [[row], facets] = await Promise.all([listing, facetsQuery]);

  const v = row?.viewer ?? null;
  const viewer: MarketplaceViewer = !v
    ? { kind: "no_profile" }
    : v.profileType === "institution"
      ? { kind: "institution" }
      : { kind: "parent", hasSchool: v.schoolId !== null, profileCompleted: v.profileCompleted, proofSubmitted: v.proofSubmitted, enrollmentVerified: v.verified };

  const helpingSchools = (row?.helping ?? []).map((h) => ({ id: h.id, name: h.name, logoUrl: logoAddress(ctx.storage, h.logoUrl) }));
  const rows = row?.items ?? [];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last ? encodeSortCursor({ sort, key: sortKeyText(last.sortKey), createdAt: last.createdAt, id: last.discountId }) : null;
  const items = page.map((b) => ({
    discountId: b.discountId,
    className: b.className,
    discountPercentage: Number(b.discountPercentage),
    discountValidity: b.discountValidity,
    numberOfStudents: b.numberOfStudents,
    /** Days to present the voucher after claiming (decision 121); null = until its validity ends. */
    holdDays: b.holdDays,
    schoolId: b.schoolId,
    schoolName: b.schoolName,
    schoolLogoUrl: logoAddress(ctx.storage, b.schoolLogoUrl),
    monthlyFee: Number(b.monthlyFee),
    discountedFee: Number(b.discountedFee),
    gold: b.gold,
    claimed: b.claimed,
    /** The viewer's place in this benefit's waitlist (decision 123): waiting with a position, or holding an offer. */
    waitlist: b.waitlist
      ? { status: b.waitlist.status, position: b.waitlist.status === "waiting" ? b.waitlist.position : null, offerExpiresAt: b.waitlist.offerExpiresAt ? new Date(b.waitlist.offerExpiresAt) : null }
      : null,
    /** 'Exigir matrícula verificada' (issue 21). */
    requiresVerifiedEnrollment: b.requiresVerified,
  }));
  // The helping schools are the viewer's own schools, the same for every card: sent once.
  // The facets' type written out (not the interface's name), so docs/api.md shows its fields.
  const result: {
    viewer: MarketplaceViewer;
    helpingSchools: typeof helpingSchools;
    items: typeof items;
    nextCursor: string | null;
    facets?: {
      total: number;
      categories: Array<{ id: number; name: string; count: number }>;
      modalities: Array<{ id: number; name: string; count: number }>;
      where: { neighborhood: number; city: number; network: number };
      fees: Array<{ max: number; count: number }>;
      discounts: Array<{ min: number; count: number }>;
      withSlots: number;
      access: { open: number; claimable: number };
      without: { q?: number; category?: number; modality?: number; where?: number; maxFee?: number; minDiscount?: number; withSlots?: number; access?: number };
    };
  } = {
    viewer,
    helpingSchools,
    items,
    nextCursor,
  };
  if (facets) result.facets = facets;
  return result;
}

/** The first sort key as the cursor carries it: the Gold flag as 1/0, numbers as PostgreSQL wrote them. */
function sortKeyText(key: string | number | boolean): string {
  if (typeof key === "boolean") return key ? "1" : "0";
  return typeof key === "number" ? String(key) : key;
}

/** A modality of another niche than the one chosen is a bad request, in Portuguese. */
async function checkModality(ctx: AuthedContext, category: number, modality: number) {
  const [found] = await queryRows<{ ok: boolean }>(ctx.db, sql`select exists (select 1 from modalities where id = ${modality} and category_id = ${category}) as ok`);
  if (!found?.ok) throw new AppError("BAD_REQUEST", { title: accessMessages.validationTitle, description: marketplaceFilterMessages.invalidModality });
}

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

async function facetCounts(
  ctx: AuthedContext,
  viewerCtes: SQL,
  filters: MarketplaceFilters,
  preds: Partial<Record<OfferFilterKey, SQL>>,
  userId: string,
): Promise<MarketplaceFacets> {
  const all: Partial<Record<OfferFilterKey | "where", SQL>> = { ...preds };
  if (preds.q) all.q = sql`i.q_match`;
  if (filters.where) all.where = whereFilter(filters.where);
  const but = (...skip: (OfferFilterKey | "where")[]) => allOf(Object.entries(all).filter(([k]) => !skip.includes(k as OfferFilterKey)).map(([, v]) => v));
  const without = Object.keys(all).map(
    (k) => sql`${k}::text, (select count(*) from f i where ${k === "category" ? but("category", "modality") : but(k as OfferFilterKey)})`,
  );
  const modalities =
    filters.category !== undefined
      ? sql`(select coalesce(json_agg(json_build_object('id', m.id, 'name', m.name, 'count', coalesce(x.n, 0)) order by m.name), '[]'::json)
          from modalities m left join (select i.modality_id, count(*) as n from f i where ${but("modality")} group by 1) x on x.modality_id = m.id
          where m.category_id = ${filters.category})`
      : sql`'[]'::json`;
  const steps = (name: string, values: number[], pass: (v: number) => SQL) =>
    sql.join(values.map((v) => sql`json_build_object(${name}::text, ${v}::numeric, 'count', count(*) filter (where ${pass(v)}))`), sql`, `);
  const [row] = await queryRows<{ facets: MarketplaceFacets }>(
    ctx.db,
    sql`
    with ${viewerCtes},
    f as (${allAdmittedOffers({
      admitted: admittedToViewer(userId),
      search: preds.q,
      where: filters.where,
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
      'fees', (select json_build_array(${steps("max", stepsWith(MARKETPLACE_FEE_STEPS, filters.maxFee), (v) => sql`i.discounted_fee <= ${v}`)})
        from f i where ${but("maxFee")}),
      'discounts', (select json_build_array(${steps("min", stepsWith(MARKETPLACE_DISCOUNT_STEPS, filters.minDiscount), (v) => sql`i.discount_percentage >= ${v}`)})
        from f i where ${but("minDiscount")}),
      'withSlots', (select count(*) from f i where ${but("withSlots")} and not i.sold_out),
      'access', (select json_build_object('open', count(*) filter (where not i.requires_verified), 'claimable', count(*) filter (where ${claimableOffer(userId)}))
        from f i where ${but("access")}),
      'without', json_build_object(${without.length ? sql.join(without, sql`, `) : sql``})
    ) as facets`,
    { prepare: true },
  );
  return row!.facets;
}
export type MarketplaceList = Awaited<ReturnType<typeof listMarketplace>>;
export type MarketplaceBenefit = MarketplaceList["items"][number];

type SqlValue = string | Placeholder;

/** The viewer, their main school, its place keys and whether their main enrollment is verified today. */
function viewerCtes(userId: SqlValue, today: SqlValue): SQL {
  return sql`
    viewer as (
      select p.user_id, p.profile_type, p.school_id, p.profile_completed, p.enrollment_proof_submitted
      from profiles p where p.user_id = ${userId}
    ),
    ms as (
      select sc.* from schools sc join viewer v on sc.id = v.school_id where v.profile_type = 'parent'
    ),
    keys as (
      select marketplace_viewer_keys(ms.city_id, ms.uf, ms.city, ms.neighborhood_id, ms.neighborhood) as k from ms
    ),
    verified as (
      select coalesce((select ${mainEnrollmentVerified(userId, today, sql.raw("v"))} from viewer v), false) as ok
    )`;
}

interface ListingShape {
  cursor: ReturnType<typeof decodeSortCursor> | null;
  filters: MarketplaceFilters;
  preds: Partial<Record<OfferFilterKey, SQL>>;
  sort: MarketplaceSort;
  limit: number;
  userId: SqlValue;
  today: SqlValue;
}

/** The page's one statement (see listMarketplace). */
function listingStatement({ cursor, filters, preds, sort, limit, userId, today }: ListingShape): SQL {
  const order = pageOrder(sort);
  return sql`
    with ${viewerCtes(userId, today)},
    own_schools as (
      select v.school_id as id, 0 as rank from viewer v where v.school_id is not null and v.profile_type = 'parent'
      union
      select e.school_id, 1 from enrollments e join viewer v on v.user_id = e.user_id
      where e.school_id is not null and v.profile_type = 'parent'
    ),
    helping as (
      select json_agg(json_build_object('id', sc.id, 'name', sc.name, 'logoUrl', sc.logo_url) order by o.rank, sc.name) as list
      from (select id, min(rank) as rank from own_schools group by id) o
      join schools sc on sc.id = o.id
      where exists (select 1 from school_memberships m where m.school_id = sc.id and m.status = 'approved')
    ),
    page as (${firstOffers({ cursor, admitted: admittedToViewer(userId), filters: allOf(Object.values(preds)), where: filters.where, sort, limit: limit + 1 })}),
    items as (
      select i.id, i.created_at, i.gold, i.sort_key,
        i.id in (select c.discount_id from claimed_discounts c where c.user_id = ${userId}) as claimed,
        (select json_build_object('status', w.status, 'offerExpiresAt', w.offer_expires_at,
            'position', (select count(*) from waitlist_entries q
              where q.discount_id = d.id and q.status = 'waiting' and q.user_id is not null and (q.created_at, q.id) <= (w.created_at, w.id)))
          from waitlist_entries w
          where w.discount_id = d.id and w.user_id = ${userId} and w.status in ('waiting', 'offered')) as waitlist,
        d.class_name, d.discount_percentage, d.discount_validity, d.number_of_students, d.hold_days, d.requires_verified_enrollment,
        s.id as school_id, s.name as school_name, s.logo_url as school_logo_url, d.monthly_fee, d.discounted_fee
      from page i
      join discounts d on d.id = i.id
      join schools s on s.id = i.school_id
    )
    select
      (select json_build_object(
        'profileType', v.profile_type, 'schoolId', v.school_id,
        'profileCompleted', v.profile_completed, 'proofSubmitted', v.enrollment_proof_submitted,
        'verified', (select ok from verified)
      ) from viewer v) as viewer,
      (select list from helping) as helping,
      (select json_agg(json_build_object(
          'discountId', i.id, 'className', i.class_name, 'discountPercentage', i.discount_percentage,
          'discountValidity', i.discount_validity, 'numberOfStudents', i.number_of_students, 'holdDays', i.hold_days,
          'schoolId', i.school_id, 'schoolName', i.school_name, 'schoolLogoUrl', i.school_logo_url,
          'monthlyFee', i.monthly_fee, 'discountedFee', i.discounted_fee, 'createdAt', i.created_at,
          'gold', i.gold, 'claimed', i.claimed, 'waitlist', i.waitlist, 'requiresVerified', i.requires_verified_enrollment,
          'sortKey', i.sort_key
        ) order by ${order})
        from items i) as items
    `;
}

const isDefaultPage = (f: MarketplaceFilters, cursor: unknown) =>
  cursor === null && f.q === undefined && f.category === undefined && f.modality === undefined && f.where === undefined &&
  f.maxFee === undefined && f.minDiscount === undefined && !f.withSlots && f.access === undefined;

const defaultPages = new Map<string, BuiltQuery>();

/**
 * The default page's statement for a sort and a page size, built once with the viewer and the day
 * as placeholders (drizzle's `sql.placeholder`): building it took about half of the handler's own
 * CPU (decision 213). A viewer's id or a day among its fixed parameters would mean a placeholder
 * was missed and the statement would serve that viewer's page to everyone: refused at once.
 */
function defaultPageStatement(sort: MarketplaceSort, limit: number): BuiltQuery {
  const key = `${sort}:${limit}`;
  let built = defaultPages.get(key);
  if (!built) {
    built = buildQuery(listingStatement({ cursor: null, filters: { sort }, preds: {}, sort, limit, userId: sql.placeholder("userId"), today: sql.placeholder("today") }));
    const named = built.params.filter((p) => p instanceof Placeholder).map((p) => (p as Placeholder).name);
    const leaked = built.params.some((p) => typeof p === "string" && /^[0-9a-f]{8}-[0-9a-f-]{27}$|^\d{4}-\d{2}-\d{2}$/i.test(p));
    if (!named.includes("userId") || !named.includes("today") || leaked) throw new Error("the default page's statement must take the viewer and the day as placeholders");
    defaultPages.set(key, built);
  }
  return built;
}
