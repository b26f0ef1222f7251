import type { VoucherStatus } from "@elo/shared";

/** One color per voucher status, the same on the parent's panel and the school's desk. */
export const VOUCHER_STATUS_COLORS: Record<VoucherStatus, string> = { reservado: "blue", utilizado: "teal", expirado: "gray", cancelado: "red" };
