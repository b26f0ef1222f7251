import type { DiscountValidity, MarketplaceFilters, MarketplaceSort, MarketplaceWhere } from "@elo/shared";
import { sql, type SQL } from "drizzle-orm";
import type { BoundAll } from "../../db/placeholders";
import type { Bound } from "../../db/raw";
import { mainEnrollmentVerified } from "../verification/verified";
import { admittedToViewer, allOf, firstOffers, offerFilters, pageOrder, type CursorParams, type OfferFilterParams } from "./offers";

/** What decides a statement's text besides which values it takes (see built-statements.ts). */
export interface StatementShape {
  sort: MarketplaceSort;
  limit: number;
  where?: MarketplaceWhere;
  withSlots?: boolean;
  access?: MarketplaceFilters["access"];
}

/** The filters' values (the search as its words); which of them are present is part of the shape. */
export interface FilterValues {
  words?: string[];
  category?: number;
  modality?: number;
  maxFee?: number;
  minDiscount?: number;
}

/** What a page's statement takes per request: values (PGlite, transactions) or placeholders (built once). */
export interface PageValues {
  userId: string;
  today: string;
  filters: FilterValues;
  /** The cursor's first key: the Gold flag in the default order, PostgreSQL's numeric text in the others. */
  cursor?: { key: string | boolean; createdAt: string; id: string };
}

export interface HelpingSchoolRow {
  id: string;
  name: string;
  logoUrl: string | null;
}

export interface BenefitRow {
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

export interface ListRow {
  viewer: { profileType: "parent" | "institution"; schoolId: string | null; profileCompleted: boolean; proofSubmitted: boolean; verified: boolean } | null;
  helping: HelpingSchoolRow[] | null;
  items: BenefitRow[] | null;
}

/** The filters as offers.ts' predicates take them: the values (or placeholders) and the shape's flags. */
export const filterParams = (filters: BoundAll<FilterValues>, shape: Pick<StatementShape, "withSlots" | "access">): OfferFilterParams => ({
  ...filters,
  withSlots: shape.withSlots,
  access: shape.access,
});

/** The viewer, their main school, its place keys and whether their main enrollment is verified today. */
export function viewerCtes(userId: Bound<string>, today: Bound<string>): SQL {
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

/**
 * The page's one statement (see listMarketplace): the viewer, the helping schools and the page's
 * cards, `limit + 1` of them (the extra one says there is a next page).
 */
export function pageStatement(v: BoundAll<PageValues>, shape: StatementShape): SQL {
  const { userId, today, cursor } = v;
  const preds = offerFilters(filterParams(v.filters, shape), userId);
  const cursorParams: CursorParams | null = cursor ?? null;
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
    page as (${firstOffers({ cursor: cursorParams, admitted: admittedToViewer(userId), filters: allOf(Object.values(preds)), where: shape.where, sort: shape.sort, limit: shape.limit + 1 })}),
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
        ) order by ${pageOrder(shape.sort)})
        from items i) as items
    `;
}
