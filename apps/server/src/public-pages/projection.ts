import type { Database } from "@elo/db";
import type { ClassPeriod, DiscountScope, DiscountValidity, TeachingStage } from "@elo/shared";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "../db/raw";

/*
 * The one projection of what a school may publish (decision 160). Every public page, the sitemap
 * and the preview images read the network through these statements only, and they name their
 * columns: institutional fields of schools (name, logo, niche, place) and of their current
 * benefits. Nothing here joins profiles, users, enrollments, vouchers or claims.
 *
 * - listed: the school is on the public pages at all (not hidden by an admin, switch on);
 * - has a page: listed and in the network (an approved staff member); the others appear on their
 *   city's page by name only;
 * - a current benefit: one the marketplace's read model holds (decision 145: active, of a school
 *   with an active Silver or Gold plan), of a school with a page.
 */

const LISTED = sql`s.public_hidden_at is null and s.public_page and s.uf_key is not null and s.city_key is not null and s.city_key <> ''`;
const IN_NETWORK = sql`exists (select 1 from school_memberships m where m.school_id = s.id and m.status = 'approved')`;
const CITY_SLUG = sql`btrim(regexp_replace(s.city_key, '[^a-z0-9]+', '-', 'g'), '-')`;

export interface StateSummary {
  uf: string;
  name: string;
  cities: number;
  schools: number;
}

export interface CitySummary {
  uf: string;
  slug: string;
  name: string;
  schools: number;
  benefits: number;
  lastmod: string;
}

export interface PublicSchool {
  id: string;
  name: string;
  uf: string;
  citySlug: string;
  city: string;
  neighborhood: string | null;
  niche: string | null;
  nicheId: number | null;
  logoUrl: string | null;
  hasPage: boolean;
  updatedAt: string;
}

export interface PublicBenefit {
  id: string;
  schoolId: string;
  schoolName: string;
  schoolUf: string;
  schoolCitySlug: string;
  schoolCity: string;
  schoolNeighborhood: string | null;
  schoolNiche: string | null;
  className: string;
  teachingStage: TeachingStage;
  classPeriod: ClassPeriod;
  scope: DiscountScope;
  monthlyFee: number;
  discountedFee: number;
  discountPercentage: number;
  validity: DiscountValidity;
  slots: number;
  holdDays: number | null;
  requiresVerified: boolean;
  updatedAt: string;
}

const SCHOOL_COLUMNS = sql`s.id, s.name, s.uf_key as uf, ${CITY_SLUG} as "citySlug", coalesce(c.name, btrim(s.city)) as city,
  nullif(btrim(coalesce(n.name, s.neighborhood)), '') as neighborhood, cat.name as niche, s.category_id as "nicheId",
  s.logo_url as "logoUrl", ${IN_NETWORK} as "hasPage", s.updated_at as "updatedAt"`;
const SCHOOL_JOINS = sql`left join cities c on c.id = s.city_id left join neighborhoods n on n.id = s.neighborhood_id left join categories cat on cat.id = s.category_id`;

const BENEFIT_COLUMNS = sql`d.id, s.id as "schoolId", s.name as "schoolName", s.uf_key as "schoolUf", ${CITY_SLUG} as "schoolCitySlug",
  coalesce(c.name, btrim(s.city)) as "schoolCity", nullif(btrim(coalesce(n.name, s.neighborhood)), '') as "schoolNeighborhood", cat.name as "schoolNiche",
  d.class_name as "className", d.teaching_stage as "teachingStage", d.class_period as "classPeriod", d.discount_scope as scope,
  d.monthly_fee::float8 as "monthlyFee", d.discounted_fee::float8 as "discountedFee", d.discount_percentage::float8 as "discountPercentage",
  d.discount_validity as validity, d.number_of_students as slots, d.hold_days as "holdDays", d.requires_verified_enrollment as "requiresVerified",
  greatest(d.updated_at, s.updated_at) as "updatedAt"`;

/** Current benefits (in the read model) of listed schools with a page, filtered by `where` over `s` and `d`. */
function benefitsWhere(where: SQL, order: SQL, limit: number): SQL {
  return sql`select ${BENEFIT_COLUMNS}
    from discounts d join schools s on s.id = d.school_id ${SCHOOL_JOINS}
    where exists (select 1 from marketplace_offers o where o.discount_id = d.id and o.school_id = d.school_id)
      and ${LISTED} and ${IN_NETWORK} and ${where}
    order by ${order} limit ${limit}`;
}

const dates = <T extends { updatedAt: unknown }>(rows: T[]): T[] => rows.map((r) => ({ ...r, updatedAt: new Date(r.updatedAt as string).toISOString() }));

/** The states with at least one listed school, with their counts. */
export async function listStates(db: Database): Promise<StateSummary[]> {
  return queryRows<StateSummary>(
    db,
    sql`select s.uf_key as uf, coalesce(st.name, s.uf_key) as name, count(distinct s.city_key)::int as cities, count(*)::int as schools
      from schools s left join states st on st.code = s.uf_key
      where ${LISTED} group by s.uf_key, st.name order by coalesce(st.name, s.uf_key)`,
  );
}

/** The cities (of one UF, or all) with at least one listed school; `benefits` counts their current benefits. */
export async function listCities(db: Database, uf: string | null): Promise<CitySummary[]> {
  const rows = await queryRows<CitySummary>(
    db,
    sql`with listed as (
        select s.id, s.uf_key as uf, ${CITY_SLUG} as slug, coalesce(c.name, btrim(s.city)) as name, s.updated_at, ${IN_NETWORK} as member
        from schools s left join cities c on c.id = s.city_id
        where ${LISTED} ${uf ? sql`and s.uf_key = ${uf}` : sql``}),
      offers as (
        select l.uf, l.slug, count(distinct o.discount_id)::int as n
        from marketplace_offers o join listed l on l.id = o.school_id where l.member group by l.uf, l.slug)
      select l.uf, l.slug, min(l.name) as name, count(*)::int as schools, coalesce(min(offers.n), 0)::int as benefits, max(l.updated_at) as lastmod
      from listed l left join offers on offers.uf = l.uf and offers.slug = l.slug
      group by l.uf, l.slug order by l.uf, min(l.name)`,
  );
  return rows.map((r) => ({ ...r, lastmod: new Date(r.lastmod).toISOString() }));
}

/** A state's name by its UF code, when it has listed schools. */
export async function stateName(db: Database, uf: string): Promise<string | null> {
  const [row] = await queryRows<{ name: string }>(
    db,
    sql`select coalesce((select st.name from states st where st.code = ${uf}), ${uf}) as name where exists (select 1 from schools s where s.uf_key = ${uf} and ${LISTED})`,
  );
  return row?.name ?? null;
}

/** The listed schools of a city (by UF and slug), with or without a page. */
export async function citySchools(db: Database, uf: string, citySlug: string): Promise<PublicSchool[]> {
  const rows = await queryRows<PublicSchool>(
    db,
    sql`select ${SCHOOL_COLUMNS} from schools s ${SCHOOL_JOINS}
      where s.uf_key = ${uf} and ${CITY_SLUG} = ${citySlug} and ${LISTED}
      order by cat.name nulls last, coalesce(n.name, s.neighborhood) nulls last, s.name_key, s.id`,
    { prepare: true },
  );
  return dates(rows);
}

/** The current benefits offered in a city, best discount first (at most `limit`). */
export async function cityBenefits(db: Database, uf: string, citySlug: string, limit: number): Promise<PublicBenefit[]> {
  return dates(await queryRows<PublicBenefit>(db, benefitsWhere(sql`s.uf_key = ${uf} and ${CITY_SLUG} = ${citySlug}`, sql`d.discount_percentage desc, d.created_at desc, d.id`, limit), { prepare: true }));
}

/** One school by id, whatever its state (the caller decides 200, 301 or 410); null when there is no such school. */
export async function schoolById(db: Database, id: string): Promise<(PublicSchool & { listed: boolean }) | null> {
  const [row] = await queryRows<PublicSchool & { listed: boolean }>(
    db,
    sql`select ${SCHOOL_COLUMNS}, (${LISTED}) as listed from schools s ${SCHOOL_JOINS} where s.id = ${id}`,
    { prepare: true },
  );
  return row ? dates([row])[0]! : null;
}

/** A school's own current benefits. */
export async function schoolBenefits(db: Database, schoolId: string): Promise<PublicBenefit[]> {
  return dates(await queryRows<PublicBenefit>(db, benefitsWhere(sql`s.id = ${schoolId}`, sql`d.discount_percentage desc, d.created_at desc, d.id`, 200), { prepare: true }));
}

/**
 * "Benefícios para alunos desta escola": what other schools offer to the families of `school`,
 * by the marketplace's rules for a parent whose main school it is (the read model's place keys,
 * another niche, not the school itself), Gold first then newest, as the marketplace orders them.
 */
export async function benefitsForStudentsOf(db: Database, schoolId: string, limit: number): Promise<PublicBenefit[]> {
  return dates(
    await queryRows<PublicBenefit>(
      db,
      sql`with me as (select id, category_id, marketplace_viewer_keys(city_id, uf, city, neighborhood_id, neighborhood) as keys from schools where id = ${schoolId}),
        offers as (select distinct on (o.discount_id) o.discount_id, o.gold, o.created_at from marketplace_offers o, me
          where o.place_key = any(me.keys) and o.school_id <> me.id and o.niche_id is distinct from me.category_id)
        select ${BENEFIT_COLUMNS}
        from offers join discounts d on d.id = offers.discount_id join schools s on s.id = d.school_id ${SCHOOL_JOINS}
        where ${LISTED} and ${IN_NETWORK}
        order by offers.gold desc, offers.created_at desc, d.id limit ${limit}`,
      { prepare: true },
    ),
  );
}

/** Schools (with a page) and cities whose names contain the query, accent- and case-insensitive. */
export async function search(db: Database, query: string, limit: number): Promise<{ schools: PublicSchool[]; cities: CitySummary[] }> {
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const schools = dates(
    await queryRows<PublicSchool>(
      db,
      sql`select ${SCHOOL_COLUMNS} from schools s ${SCHOOL_JOINS}
        where ${LISTED} and ${IN_NETWORK} and s.name_key like ${pattern} order by s.name_key, s.id limit ${limit}`,
    ),
  );
  const cities = await queryRows<CitySummary>(
    db,
    sql`select s.uf_key as uf, ${CITY_SLUG} as slug, min(coalesce(c.name, btrim(s.city))) as name, count(*)::int as schools, 0 as benefits, max(s.updated_at) as lastmod
      from schools s left join cities c on c.id = s.city_id
      where ${LISTED} and s.city_key like ${pattern}
      group by s.uf_key, ${CITY_SLUG} order by 3, 1 limit ${limit}`,
  );
  return { schools, cities };
}

/** Every school with a page, for the sitemap: its address parts and when it last changed. */
export async function sitemapSchools(db: Database): Promise<Array<{ id: string; name: string; uf: string; citySlug: string; lastmod: string; current: boolean }>> {
  const rows = await queryRows<{ id: string; name: string; uf: string; citySlug: string; lastmod: string; current: boolean }>(
    db,
    sql`select s.id, s.name, s.uf_key as uf, ${CITY_SLUG} as "citySlug",
        greatest(s.updated_at, (select max(d.updated_at) from discounts d where d.school_id = s.id)) as lastmod,
        exists (select 1 from marketplace_offers o where o.school_id = s.id) as current
      from schools s where ${LISTED} and ${IN_NETWORK} order by s.id`,
  );
  return rows.map((r) => ({ ...r, lastmod: new Date(r.lastmod).toISOString() }));
}

/**
 * Whether `id` is a current benefit of a school with a page (what 'Quero este desconto' may lead
 * to); `id` is a well-formed id, as `benefitIdOf` (slug.ts) returns it.
 */
export async function isCurrentBenefit(deps: { db: Database }, id: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(deps.db, benefitsWhere(sql`d.id = ${id}`, sql`d.id`, 1));
  return rows.length > 0;
}
