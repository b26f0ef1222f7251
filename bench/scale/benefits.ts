import type { Sql } from "postgres";
import type { ScaleOptions } from "./options";

/**
 * Benefits of the schools that may publish (active Silver or Gold plan), created by their staff.
 * Scope: 55% neighborhood, 44% city, 1% the whole platform; 8% paused; 5% already sold out.
 */
export async function generateBenefits(sql: Sql, opts: ScaleOptions) {
  await sql`
    create temp table gen_publishers as
    select row_number() over (order by s.id) - 1 as rn, s.id as school_id, s.category_id, s.modality_id, m.name as modality, g.user_id
    from schools s
    join subscriptions sub on sub.school_id = s.id and sub.status = 'active' and sub.plan_type in ('silver', 'gold')
    join gen_staff g on g.school_id = s.id
    join modalities m on m.id = s.modality_id`;
  await sql`create unique index on gen_publishers (rn)`;
  const [{ publishers }] = await sql<[{ publishers: number }]>`select count(*)::int as publishers from gen_publishers`;
  if (publishers === 0) return { benefits: 0, publishers };
  const result = await sql`
    insert into discounts (school_id, user_id, teaching_stage, category_id, modality_id, class_name, class_period, discount_scope,
                           monthly_fee, discount_percentage, discounted_fee, discount_validity, number_of_students, status, created_at, updated_at)
    select school_id, user_id, stage, category_id, modality_id, class_name, period,
           (case when r_scope < 0.55 then 'neighborhood' when r_scope < 0.99 then 'city' else 'all_except_own' end)::discount_scope,
           fee, pct, round(fee - fee * pct / 100, 2), validity,
           case when r_slots < 0.05 then 0 else 5 + floor(r_slots * 56)::int end,
           (case when r_status < 0.08 then 'paused' else 'active' end)::discount_status,
           created, created
    from (
      select p.school_id, p.user_id, p.category_id, p.modality_id,
             p.modality || ' - Turma ' || chr(65 + ((g.i / ${publishers}) % 26)::int) as class_name,
             (enum_range(null::teaching_stage))[1 + floor(random() * 9)::int] as stage,
             (enum_range(null::class_period))[1 + floor(random() * 5)::int] as period,
             (enum_range(null::discount_validity))[1 + floor(random() * 7)::int] as validity,
             round((150 + random() * 2350)::numeric, 2) as fee,
             (array[5, 10, 15, 20, 25, 30, 40, 50])[1 + floor(random() * 8)::int]::numeric as pct,
             random() as r_scope, random() as r_slots, random() as r_status,
             now() - random() * interval '365 days' as created
      from generate_series(0, ${opts.benefits - 1}) g(i)
      join gen_publishers p on p.rn = g.i % ${publishers}
    ) x`;
  return { benefits: result.count, publishers };
}

/**
 * Past claims: each parent claims about 2.5 benefits, mostly of schools in their own city. Every
 * claim has its voucher (unique codes derived from the row number), a claimed_discounts row, and a
 * status that follows its validity (expired once the end date passed, a third of the rest used).
 */
export async function generateVouchers(sql: Sql, opts: ScaleOptions) {
  await sql`
    create temp table gen_city_benefits as
    select s.city_id, row_number() over (partition by s.city_id order by d.id) - 1 as rn, d.id as discount_id, d.school_id, d.discount_validity
    from discounts d join schools s on s.id = d.school_id`;
  await sql`create unique index on gen_city_benefits (city_id, rn)`;
  await sql`create temp table gen_city_bcounts as select city_id, count(*)::int as cnt from gen_city_benefits group by city_id`;
  await sql`create temp table gen_all_benefits as select row_number() over (order by discount_id) - 1 as rn, discount_id, school_id, discount_validity from gen_city_benefits`;
  await sql`create unique index on gen_all_benefits (rn)`;
  const [{ total }] = await sql<[{ total: number }]>`select count(*)::int as total from gen_all_benefits`;
  if (total === 0) return { vouchers: 0 };
  const candidates = Math.ceil(opts.vouchers * 1.1);
  await sql`
    create temp table gen_claim_candidates as
    select k, p.user_id, p.city_id, random() as ra, random() as rb, random() as rc
    from generate_series(0, ${candidates - 1}) k join gen_parents p on p.n = 1 + k % ${opts.parents}`;
  await sql`
    create temp table gen_claims as
    select row_number() over (order by k) - 1 as v, * from (
      select distinct on (c.user_id, coalesce(cb.discount_id, ab.discount_id))
             c.k, c.user_id, coalesce(cb.discount_id, ab.discount_id) as discount_id, coalesce(cb.school_id, ab.school_id) as school_id,
             coalesce(cb.discount_validity, ab.discount_validity) as validity,
             now() - c.rc * interval '300 days' as claimed_at, c.rb
      from gen_claim_candidates c
      left join gen_city_bcounts cc on cc.city_id = c.city_id and c.rb < 0.9
      left join gen_city_benefits cb on cb.city_id = c.city_id and cb.rn = floor(c.ra * cc.cnt)::int
      join gen_all_benefits ab on ab.rn = floor(c.ra * ${total})::int
      order by c.user_id, coalesce(cb.discount_id, ab.discount_id), c.k
    ) x
    order by k
    limit ${opts.vouchers}`;
  // Codes: 1000-9999, then the row number in base 26 as letters; far from what the app's random draws collide with.
  const inserted = await sql`
    insert into discount_transactions (user_id, discount_id, school_id, voucher_code, status, claimed_at, valid_until, redeemed_at)
    select user_id, discount_id, school_id, code,
           (case when valid_until < current_date then 'expirado' when rb < 0.3 then 'utilizado' else 'reservado' end)::voucher_status,
           claimed_at, valid_until,
           case when valid_until >= current_date and rb < 0.3 then claimed_at + interval '3 days' end
    from (
      select g.*,
             (1000 + v % 9000)::text || '-' || chr(65 + ((v / 9000) % 26)::int) || chr(65 + ((v / 234000) % 26)::int)
               || chr(65 + ((v / 6084000) % 26)::int) || chr(65 + ((v / 158184000) % 26)::int) as code,
             case when validity = 'school_year' then (date_trunc('year', claimed_at) + interval '1 year - 1 day')::date
                  else (claimed_at + array_position(enum_range(null::discount_validity), validity) * interval '1 month')::date end as valid_until
      from gen_claims g
    ) y`;
  await sql`insert into claimed_discounts (user_id, discount_id, created_at) select user_id, discount_id, claimed_at from gen_claims`;
  return { vouchers: inserted.count };
}
