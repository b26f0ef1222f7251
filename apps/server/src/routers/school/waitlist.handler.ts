import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import type { StaffContext } from "./staff-context";

/**
 * school.waitlist.list: per benefit of the school, how many families wait and how many offered slots
 * await an answer (decision 123) — the demand more slots would serve. Counts only: the school learns
 * nothing about who is waiting until a family claims.
 */
export async function schoolWaitlist({ ctx }: { ctx: StaffContext }) {
  const rows = await queryRows<{ discount_id: string; class_name: string; status: "active" | "paused"; free: number; waiting: number; offered: number }>(
    ctx.db,
    sql`
    select d.id as discount_id, d.class_name, d.status, d.number_of_students as free,
      count(w.id) filter (where w.status = 'waiting')::int as waiting,
      count(w.id) filter (where w.status = 'offered')::int as offered
    from discounts d
    left join waitlist_entries w on w.discount_id = d.id and w.status in ('waiting', 'offered') and w.user_id is not null
    where d.school_id = ${ctx.schoolId}
    group by d.id
    order by d.created_at desc, d.id desc`,
  );
  return rows.map((r) => ({ discountId: r.discount_id, className: r.class_name, status: r.status, freeSlots: r.free, waiting: r.waiting, offered: r.offered }));
}
