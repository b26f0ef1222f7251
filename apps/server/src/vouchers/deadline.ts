import { schema } from "@elo/db";
import type { VoucherStatus } from "@elo/shared";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** The columns a voucher's last day depends on, as SQL (drizzle columns or raw aliases). */
export interface DeadlineColumns {
  status: SQLWrapper;
  validUntil: SQLWrapper;
  claimedAt: SQLWrapper;
  /** The benefit's hold (`discounts.hold_days`). */
  holdDays: SQLWrapper;
}

/** Raw-SQL column references for a `discount_transactions` alias `t` and its benefit's alias `d`. */
export const rawVoucherColumns = (t: string, d: string): DeadlineColumns => ({
  status: sql.raw(`${t}.status`),
  validUntil: sql.raw(`${t}.valid_until`),
  claimedAt: sql.raw(`${t}.claimed_at`),
  holdDays: sql.raw(`${d}.hold_days`),
});

const { discountTransactions: tx, discounts } = schema;

/** The columns of a drizzle query over `discount_transactions` joined to its benefit (`discounts`). */
export const joinedVoucherColumns: DeadlineColumns = { status: tx.status, validUntil: tx.validUntil, claimedAt: tx.claimedAt, holdDays: discounts.holdDays };

/** The same for a statement on `discount_transactions` alone: the hold is read from its benefit. */
export const voucherOnlyColumns: DeadlineColumns = {
  ...joinedVoucherColumns,
  holdDays: sql`(select ${discounts.holdDays} from ${discounts} where ${discounts.id} = ${tx.discountId})`,
};

/** The day the hold ends (claim day in Brasília + the benefit's hold), or null without a hold (decision 121). */
export const presentBy = (c: Pick<DeadlineColumns, "claimedAt" | "holdDays">): SQL<string | null> =>
  sql<string | null>`((${c.claimedAt} at time zone 'America/Sao_Paulo')::date + ${c.holdDays})`;

/** The last day (Brasília calendar) a voucher can be presented: its validity end date, or the hold's end if earlier. */
export const lastDay = (c: DeadlineColumns): SQL<string> => sql<string>`least(${c.validUntil}, ${presentBy(c)})`;

/** True for a reserved voucher whose last day is before `today`: due to expire. */
export const pastDeadline = (c: DeadlineColumns, today: string): SQL<boolean> => sql<boolean>`(${c.status} = 'reservado' and ${lastDay(c)} < ${today}::date)`;

/**
 * The status a person sees: a reserved voucher past its last day reads 'expirado' even before the
 * expiry job has rewritten it (the job runs every minute; the day turns at midnight).
 */
export const shownStatus = (c: DeadlineColumns, today: string): SQL<VoucherStatus> =>
  sql<VoucherStatus>`(case when ${pastDeadline(c, today)} then 'expirado'::voucher_status else ${c.status} end)`;
