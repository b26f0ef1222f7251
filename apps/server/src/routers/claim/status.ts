import type { VoucherStatus } from "@elo/shared";

/**
 * The status a parent sees: a reserved voucher whose last valid day is before today reads
 * 'expirado' (computed on read; see docs/decisions/031).
 */
export function shownStatus(stored: VoucherStatus, validUntil: string, today: string): VoucherStatus {
  return stored === "reservado" && validUntil < today ? "expirado" : stored;
}
