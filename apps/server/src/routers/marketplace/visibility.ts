import { sql, type Placeholder, type SQL } from "drizzle-orm";

/**
 * Marketplace rules 2 to 4 of DECISIONS.md for one parent, over the aliases `d` (the benefit),
 * `s` (the offering school) and `ms` (the parent's main school). Rule 1 is added by each caller:
 * the claim puts "active with slots left" in its conditional UPDATE, the waitlist "active". The
 * list reads the same rules from the read model marketplace_offers (decision 145), whose tests
 * compare it with these.
 */
export function admittedBy(userId: string | Placeholder): SQL {
  return sql`
    coalesce(s.category_id, d.category_id) is distinct from ms.category_id
    and exists (
      select 1 from subscriptions sub
      where sub.school_id = s.id and sub.status = 'active' and sub.plan_type in ('silver', 'gold')
    )
    and s.id <> ms.id
    and not exists (select 1 from enrollments e where e.user_id = ${userId} and e.school_id = s.id)
    and case d.discount_scope
      when 'neighborhood' then coalesce(
        s.neighborhood_id = ms.neighborhood_id,
        lower(s.neighborhood) = lower(ms.neighborhood) and lower(s.city) = lower(ms.city) and s.uf = ms.uf,
        false)
      when 'city' then coalesce(s.city_id = ms.city_id, lower(s.city) = lower(ms.city) and s.uf = ms.uf, false)
      else true
    end`;
}
