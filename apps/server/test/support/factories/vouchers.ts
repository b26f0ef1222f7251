import { schema } from "@elo/db";
import type { VoucherStatus } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { Harness } from "../harness";

let counter = 0;

/** A voucher row for `discountId` issued to `userId` (a parent), valid until `validUntil`. */
export async function insertVoucher(
  h: Pick<Harness, "db">,
  benefit: { id: string; schoolId: string },
  userId: string | null,
  opts: { status?: VoucherStatus; validUntil?: string; code?: string; claimedAt?: Date; redeemedAt?: Date } = {},
) {
  const n = ++counter;
  const code = opts.code ?? `${String(1000 + ((process.pid * 7 + n * 131) % 9000))}-${String.fromCharCode(65 + (n % 26), 65 + ((n * 3) % 26), 65 + ((n * 7) % 26), 65 + ((process.pid + n) % 26))}`;
  const [row] = await h.db
    .insert(schema.discountTransactions)
    .values({ userId, discountId: benefit.id, schoolId: benefit.schoolId, voucherCode: code, status: opts.status ?? "reservado", validUntil: opts.validUntil ?? "2999-12-31", ...(opts.claimedAt ? { claimedAt: opts.claimedAt } : {}), redeemedAt: opts.redeemedAt ?? null })
    .returning();
  return row!;
}

/** Remaining slots and the vouchers of a benefit by stored status (the slot arithmetic of docs/decisions/120). */
export async function slotCount(h: Pick<Harness, "db">, discountId: string) {
  const [d] = await h.db.select({ remaining: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, discountId));
  const rows = await h.db.select({ status: schema.discountTransactions.status }).from(schema.discountTransactions).where(eq(schema.discountTransactions.discountId, discountId));
  const by = (s: VoucherStatus) => rows.filter((r) => r.status === s).length;
  return { remaining: d!.remaining, reservado: by("reservado"), utilizado: by("utilizado"), expirado: by("expirado"), cancelado: by("cancelado") };
}
