import { z } from "zod";
import { text } from "./fields";

/** claim.create: the benefit the parent wants. */
export const claimCreateInput = z.object({ discountId: z.uuid() }).strict();
export type ClaimCreateInput = z.infer<typeof claimCreateInput>;

/** claim.byId: the transaction id from /confirmacao-desconto?transaction=... (any text; unknown ids answer not found). */
export const claimByIdInput = z.object({ transactionId: text().trim().max(100) }).strict();
export type ClaimByIdInput = z.infer<typeof claimByIdInput>;

/** NNNN-LLLL: 1000 to 9999, a hyphen, four capital letters. */
export const VOUCHER_PATTERN = /^[1-9]\d{3}-[A-Z]{4}$/;
