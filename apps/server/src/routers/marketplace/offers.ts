import { sql, type SQL } from "drizzle-orm";

/** How many place keys marketplace_viewer_keys returns (migration 0010_marketplace_offers_triggers). */
const VIEWER_KEYS = 7;

/**
 * The first `limit` offers after `after` that a parent may see (decision 145): for each of the
 * parent's place keys (CTE `keys`, null when the caller has no main school) one index range of the
 * read model, already in page order, read only until `limit` entries pass `admitted` (the rules
 * that depend on the parent); the page is the first `limit` of their union in the same order.
 * Columns: id, school_id, created_at, gold.
 */
export function firstOffers(opts: { after: SQL; admitted: SQL; limit: number }): SQL {
  const branches = Array.from(
    { length: VIEWER_KEYS },
    (_, n) => sql`(select i.discount_id as id, i.school_id, i.created_at, i.gold from marketplace_offers i
      where i.place_key = (select k[${sql.raw(String(n + 1))}] from keys) and ${opts.after} and ${opts.admitted}
      order by i.gold desc, i.created_at desc, i.discount_id
      limit ${opts.limit})`,
  );
  return sql`select * from (${sql.join(branches, sql` union all `)}) i order by i.gold desc, i.created_at desc, i.id limit ${opts.limit}`;
}

/**
 * The rules of DECISIONS.md that depend on the parent and not only on the place, over the alias
 * `i` (an offer) and the CTE `ms` (the parent's main school): rule 2 (another niche), rule 4's
 * "any school but my own" and the parent's other enrollments. Rules 1, 3 and the place part of 4
 * are the read model's (marketplace_offers_expected); visibility.ts says all four for the claim.
 * Written as scalars of `ms`, so the offers stay in index order.
 */
export function admittedToViewer(userId: string): SQL {
  return sql`i.niche_id is distinct from (select ms.category_id from ms)
    and i.school_id <> (select ms.id from ms)
    and i.school_id not in (select e.school_id from enrollments e where e.user_id = ${userId} and e.school_id is not null)`;
}
