import type { Database } from "@elo/db";
import type { PlanType } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";

/** Schools per active plan ('none' for a school without one), every plan present, in plan order. */
export async function schoolsByPlan(db: Database): Promise<{ plan: PlanType | "none"; schools: number }[]> {
  const rows = await queryRows<{ plan: PlanType | "none"; schools: number }>(db, sql`
    select coalesce(s.plan_type::text, 'none') as plan, count(*)::int as schools
    from schools left join subscriptions s on s.school_id = schools.id and s.status = 'active'
    group by 1`);
  const order = ["gold", "silver", "bronze", "none"] as const;
  return order.map((plan) => ({ plan, schools: rows.find((r) => r.plan === plan)?.schools ?? 0 }));
}

/** Schools per UF, most first (ties by UF); schools without a UF under null. */
export function schoolsByUf(db: Database): Promise<{ uf: string | null; schools: number }[]> {
  return queryRows(db, sql`select uf, count(*)::int as schools from schools group by uf order by schools desc, uf nulls last`);
}
