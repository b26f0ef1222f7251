import { schema, type Database } from "@elo/db";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps";
import { saoPauloDayPlus } from "../../lib/calendar";
import { enqueueTemplate, voucherEmail } from "../../mail/templates";
import type { ClaimedBenefit } from "./claim-discount";

/** Queues the voucher e-mail of a claim (in `db`'s transaction when given one), with the benefit's hold (decision 121). */
export async function enqueueVoucherEmail(deps: Pick<AppDeps, "mailer" | "config">, db: Database, to: string, discountId: string, claim: ClaimedBenefit) {
  const [benefit] = await db.select({ holdDays: schema.discounts.holdDays }).from(schema.discounts).where(eq(schema.discounts.id, discountId));
  const holdDays = benefit?.holdDays ?? null;
  await enqueueTemplate(deps, db, voucherEmail, to, {
    parentName: claim.parentName,
    voucherCode: claim.voucherCode,
    transactionId: claim.transactionId,
    validUntil: claim.validUntil,
    hold: holdDays ? { days: holdDays, presentBy: saoPauloDayPlus(claim.claimedAt, holdDays) } : null,
    ...claim.discount,
  });
}
