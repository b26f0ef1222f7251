import type { WaitlistStatus } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import type { ParentContext } from "./context";

interface PlaceRow {
  discount_id: string;
  status: Extract<WaitlistStatus, "waiting" | "offered">;
  class_name: string;
  school_name: string;
  discount_percentage: string | number;
  offer_expires_at: Date | string | null;
  position: number;
}

/**
 * waitlist.mine (/painel-pais): the parent's open places, oldest first, each with its position
 * (1 = next to be offered) or, for an offer, its deadline.
 */
export async function myWaitlist({ ctx }: { ctx: ParentContext }) {
  const rows = await queryRows<PlaceRow>(
    ctx.db,
    sql`
    select w.discount_id, w.status, d.class_name, s.name as school_name, d.discount_percentage, w.offer_expires_at,
      (select count(*) from waitlist_entries q
        where q.discount_id = w.discount_id and q.status = 'waiting' and q.user_id is not null
          and (q.created_at, q.id) <= (w.created_at, w.id))::int as position
    from waitlist_entries w
    join discounts d on d.id = w.discount_id
    join schools s on s.id = d.school_id
    where w.user_id = ${ctx.user.id} and w.status in ('waiting', 'offered')
    order by w.created_at, w.id`,
  );
  return rows.map((r) => ({
    discountId: r.discount_id,
    status: r.status,
    className: r.class_name,
    schoolName: r.school_name,
    discountPercentage: Number(r.discount_percentage),
    /** Only while waiting: how many are ahead, plus one. */
    position: r.status === "waiting" ? r.position : null,
    offerExpiresAt: r.offer_expires_at ? new Date(r.offer_expires_at) : null,
  }));
}
