import { LIMITS, type DiscountValidity, type MarketplaceListInput } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { logoAddress } from "../../storage/logo";
import type { Context } from "../../trpc/init";
import { saoPauloDay } from "../../lib/calendar";
import { mainEnrollmentVerified } from "../verification/verified";
import { afterCursor, decodeCursor, encodeCursor } from "./cursor";
import { admittedToViewer, firstOffers } from "./offers";

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
  const cursor = input?.cursor ? decodeCursor(input.cursor) : null;
  const [row] = await queryRows<ListRow>(
    ctx.db,
    sql`
    with viewer as (
      select p.user_id, p.profile_type, p.school_id, p.profile_completed, p.enrollment_proof_submitted
      from profiles p where p.user_id = ${userId}
    ),
    ms as (
      select sc.* from schools sc join viewer v on sc.id = v.school_id where v.profile_type = 'parent'
    ),
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
    keys as (
      select marketplace_viewer_keys(ms.city_id, ms.uf, ms.city, ms.neighborhood_id, ms.neighborhood) as k from ms
    ),
    page as (${firstOffers({ after: afterCursor(cursor, sql`i.discount_id`), admitted: admittedToViewer(userId), limit: limit + 1 })}),
    items as (
      select i.id, i.created_at, i.gold,
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
        'verified', ${mainEnrollmentVerified(userId, saoPauloDay(ctx.clock.now()), sql.raw("v"))}
      ) from viewer v) as viewer,
      (select list from helping) as helping,
      (select json_agg(json_build_object(
          'discountId', i.id, 'className', i.class_name, 'discountPercentage', i.discount_percentage,
          'discountValidity', i.discount_validity, 'numberOfStudents', i.number_of_students, 'holdDays', i.hold_days,
          'schoolId', i.school_id, 'schoolName', i.school_name, 'schoolLogoUrl', i.school_logo_url,
          'monthlyFee', i.monthly_fee, 'discountedFee', i.discounted_fee, 'createdAt', i.created_at,
          'gold', i.gold, 'claimed', i.claimed, 'waitlist', i.waitlist, 'requiresVerified', i.requires_verified_enrollment
        ) order by i.gold desc, i.created_at desc, i.id)
        from items i) as items
    `,
    { prepare: true },
  );

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
  const nextCursor = rows.length > limit && last ? encodeCursor({ gold: last.gold, createdAt: last.createdAt, id: last.discountId }) : null;
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
  return { viewer, helpingSchools, items, nextCursor };
}
export type MarketplaceList = Awaited<ReturnType<typeof listMarketplace>>;
export type MarketplaceBenefit = MarketplaceList["items"][number];
