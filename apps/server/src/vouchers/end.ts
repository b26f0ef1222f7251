import type { Database } from "@elo/db";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "../db/raw";

/** A voucher that just left `reservado`, and what its e-mail or answer needs. */
export interface EndedVoucher {
  id: string;
  discount_id: string;
  school_id: string;
  user_id: string | null;
  voucher_code: string;
}

/**
 * Ends ONE reserved voucher and gives its slot back to the benefit, exactly once (docs/decisions/120):
 * a single statement whose conditional UPDATE only matches the voucher while it is still
 * `reservado`, and whose slot increment runs from that UPDATE's RETURNING. Two transitions racing
 * for the same voucher (expiry, the desk's confirmation, a cancellation, the parent giving up) queue
 * on its row lock; the second re-reads the row, finds it no longer reserved, and changes nothing.
 * `target` selects the voucher's id (at most one row); `set` adds columns to the transition.
 * Lock order is always voucher row, then benefit row.
 */
export async function endReservedVoucher(db: Database, target: SQL, change: { status: "expirado" | "cancelado"; now: Date; set?: SQL }): Promise<EndedVoucher | null> {
  const at = change.now.toISOString();
  const [row] = await queryRows<EndedVoucher>(
    db,
    sql`
    with target as (${target}),
    ended as (
      update discount_transactions t
      set status = ${change.status}::voucher_status, ended_at = ${at}::timestamptz${change.set ? sql`, ${change.set}` : sql``}
      from target
      where t.id = target.id and t.status = 'reservado'
      returning t.id, t.discount_id, t.school_id, t.user_id, t.voucher_code
    ),
    slot as (
      update discounts d
      set number_of_students = d.number_of_students + 1, updated_at = ${at}::timestamptz
      from ended
      where d.id = ended.discount_id
      returning d.id
    )
    select ended.* from ended`,
  );
  return row ?? null;
}
