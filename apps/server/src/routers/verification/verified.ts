import { sql, type Placeholder, type SQL } from "drizzle-orm";

/**
 * Issue 21: the parent's main enrollment is verified and current on `today` (yyyy-MM-dd, São
 * Paulo): a verified proof of the main enrollment naming the parent's main school (`p.school_id`
 * of the caller's profile alias `p`) whose school year has not lapsed. An older verification of the
 * same school still counts while a newer proof waits.
 */
export function mainEnrollmentVerified(userId: string | Placeholder, today: string | Placeholder, profile: SQL = sql.raw("p")): SQL {
  return sql`exists (
    select 1 from enrollment_proofs v
    where v.user_id = ${userId} and v.enrollment_id is null and v.school_id = ${profile}.school_id
      and v.status = 'verificado' and v.verified_until >= ${today}::date)`;
}
