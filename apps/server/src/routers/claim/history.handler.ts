import { voucherDeskAddress, type CancelReason, type DiscountValidity, type VoucherStatus } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { saoPauloDay } from "../../lib/calendar";
import type { Context } from "../../trpc/init";
import { presentBy, rawVoucherColumns, shownStatus } from "../../vouchers/deadline";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

interface HistoryRow {
  transaction_id: string;
  discount_id: string;
  class_name: string;
  discount_percentage: string | number;
  voucher_code: string;
  status: VoucherStatus;
  claimed_at: Date | string;
  valid_until: string;
  present_by: string | null;
  cancel_reason: CancelReason | null;
  cancelled_by_parent: boolean;
  school_name: string;
  discount_validity: DiscountValidity;
}

/** claim.history: /painel-pais, one entry per benefit (its latest claim), newest first. */
export async function claimHistory({ ctx }: { ctx: AuthedContext }) {
  const today = saoPauloDay(ctx.clock.now());
  const t = rawVoucherColumns("t", "d");
  const rows = await queryRows<HistoryRow>(
    ctx.db,
    sql`
    select * from (
      select distinct on (t.discount_id)
        t.id as transaction_id, t.discount_id, d.class_name, d.discount_percentage, t.voucher_code, ${shownStatus(t, today)} as status,
        t.claimed_at, t.valid_until::text as valid_until, ${presentBy(t)}::text as present_by,
        t.cancel_reason, coalesce(t.cancelled_by = t.user_id, false) as cancelled_by_parent, s.name as school_name, d.discount_validity
      from discount_transactions t
      join discounts d on d.id = t.discount_id
      join schools s on s.id = t.school_id
      where t.user_id = ${ctx.user.id}
      order by t.discount_id, t.claimed_at desc, t.id
    ) latest
    order by latest.claimed_at desc, latest.transaction_id`,
  );
  return rows.map((r) => {
    const expired = r.valid_until < today;
    return {
      transactionId: r.transaction_id,
      discountId: r.discount_id,
      className: r.class_name,
      discountPercentage: Number(r.discount_percentage),
      voucherCode: r.voucher_code,
      /** What the voucher's QR code encodes (decision 140). */
      deskUrl: voucherDeskAddress(ctx.config.publicOrigin, r.voucher_code),
      claimedAt: new Date(r.claimed_at),
      validUntil: r.valid_until,
      /** The hold's last day (decision 121), null when the benefit sets none. */
      presentBy: r.present_by,
      cancelReason: r.cancel_reason,
      /** The parent gave it up themselves (rather than the school cancelling it). */
      cancelledByParent: r.cancelled_by_parent,
      discountValidity: r.discount_validity,
      schoolName: r.school_name,
      /** The badge goes secondary once the validity end date has passed. */
      expired,
      status: r.status,
    };
  });
}
