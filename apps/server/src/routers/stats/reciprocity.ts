import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";

/**
 * The school's give and take in the network, counted in families (parents, each once): its own
 * families who reserved (and used) other schools' benefits, against other schools' families who
 * reserved (and used) its benefits. A school's families are the parents whose main school or other
 * enrollment it is. All time; vouchers of deleted accounts belong to no family. One statement.
 */
export async function reciprocity(db: Database, schoolId: string) {
  const [row] = await queryRows<{ out_reserved: number; out_used: number; in_reserved: number; in_used: number }>(db, sql`
    with own as (
      select user_id from profiles where school_id = ${schoolId}
      union
      select user_id from enrollments where school_id = ${schoolId}
    ), outgoing as (
      select t.user_id, t.status from discount_transactions t join own on own.user_id = t.user_id where t.school_id <> ${schoolId}
    ), incoming as (
      select t.user_id, t.status from discount_transactions t
      where t.school_id = ${schoolId} and t.user_id is not null and not exists (select 1 from own where own.user_id = t.user_id)
    )
    select
      (select count(distinct user_id) from outgoing)::int as out_reserved,
      (select count(distinct user_id) from outgoing where status = 'utilizado')::int as out_used,
      (select count(distinct user_id) from incoming)::int as in_reserved,
      (select count(distinct user_id) from incoming where status = 'utilizado')::int as in_used`);
  return {
    ownFamiliesElsewhere: { reserved: row?.out_reserved ?? 0, used: row?.out_used ?? 0 },
    otherFamiliesHere: { reserved: row?.in_reserved ?? 0, used: row?.in_used ?? 0 },
  };
}
