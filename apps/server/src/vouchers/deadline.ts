import type { VoucherStatus } from "@elo/shared";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** The columns a voucher's last day depends on, as SQL (drizzle columns or raw aliases). */
export interface DeadlineColumns {
  status: SQLWrapper;
  validUntil: SQLWrapper;
}

/** Raw-SQL column references for a `discount_transactions` alias. */
export const rawVoucherColumns = (t: string): DeadlineColumns => ({ status: sql.raw(`${t}.status`), validUntil: sql.raw(`${t}.valid_until`) });

/** The last day (Brasília calendar) a voucher can be presented: its validity end date. */
export const lastDay = (c: DeadlineColumns): SQL<string> => sql<string>`${c.validUntil}`;

/** True for a reserved voucher whose last day is before `today`: due to expire. */
export const pastDeadline = (c: DeadlineColumns, today: string): SQL<boolean> => sql<boolean>`(${c.status} = 'reservado' and ${lastDay(c)} < ${today}::date)`;

/**
 * The status a person sees: a reserved voucher past its last day reads 'expirado' even before the
 * expiry job has rewritten it (the job runs every minute; the day turns at midnight).
 */
export const shownStatus = (c: DeadlineColumns, today: string): SQL<VoucherStatus> =>
  sql<VoucherStatus>`(case when ${pastDeadline(c, today)} then 'expirado'::voucher_status else ${c.status} end)`;
