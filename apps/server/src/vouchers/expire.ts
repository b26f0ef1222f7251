import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import { saoPauloDay } from "../lib/calendar";
import { offerFreeSlots, type WaitlistDeps } from "../waitlist/offers";
import { pastDeadline, rawVoucherColumns } from "./deadline";
import { endReservedVoucher } from "./end";

/** Vouchers one run of the job expires at most (the rest wait for the next run). */
export const EXPIRY_BATCH = 200;

/**
 * Expires reserved vouchers past their last day and returns their slots (docs/decisions/120). Each
 * voucher is its own short transaction: the oldest due voucher nobody else holds is taken with
 * `FOR UPDATE SKIP LOCKED`, so several server processes running this job at once share the work
 * and never expire one voucher twice, and a voucher the desk is confirming right now is skipped
 * (the next run looks again). A waitlist gets the freed slot in the same transaction. Returns how
 * many vouchers it expired.
 */
export async function expireDueVouchers(deps: WaitlistDeps & { db: Database }, batch = EXPIRY_BATCH): Promise<number> {
  let expired = 0;
  while (expired < batch) {
    const now = deps.clock.now();
    const due = sql`
      select t.id from discount_transactions t join discounts d on d.id = t.discount_id
      where ${pastDeadline(rawVoucherColumns("t", "d"), saoPauloDay(now))}
      order by t.valid_until, t.id
      limit 1
      for update of t skip locked`;
    const ended = await deps.db.transaction(async (tx) => {
      const voucher = await endReservedVoucher(tx, due, { status: "expirado", now });
      // The returned slot goes to the benefit's waitlist first (decision 123).
      if (voucher) await offerFreeSlots(deps, tx, voucher.discount_id);
      return voucher;
    });
    if (!ended) break;
    expired++;
  }
  return expired;
}
