import { z } from "zod";
import { text } from "./fields";
import { LIMITS } from "../constants";

/**
 * marketplace.list: one page of cards. `cursor` is the opaque `nextCursor` of the previous page
 * (absent or null for the first); unknown keys (tRPC's infinite-query `direction`) are ignored.
 */
export const marketplaceListInput = z
  .object({
    cursor: z.string().max(200).regex(/^[A-Za-z0-9_-]+$/).nullish(),
    limit: z.number().int().min(1).max(LIMITS.marketplacePageMax).optional(),
  })
  .optional();
export type MarketplaceListInput = z.infer<typeof marketplaceListInput>;

/** claim.create: the benefit the parent wants. */
export const claimCreateInput = z.object({ discountId: z.uuid() }).strict();
export type ClaimCreateInput = z.infer<typeof claimCreateInput>;

/** claim.byId: the transaction id from /confirmacao-desconto?transaction=... (any text; unknown ids answer not found). */
export const claimByIdInput = z.object({ transactionId: text().trim().max(100) }).strict();
export type ClaimByIdInput = z.infer<typeof claimByIdInput>;

/** claim.giveUp: the parent gives up one of their reserved vouchers (decision 122). */
export const claimGiveUpInput = z.object({ transactionId: z.uuid() }).strict();
export type ClaimGiveUpInput = z.infer<typeof claimGiveUpInput>;

/** NNNN-LLLL: 1000 to 9999, a hyphen, four capital letters. */
export const VOUCHER_PATTERN = /^[1-9]\d{3}-[A-Z]{4}$/;

/** waitlist.join / leave / claimOffer: the benefit (one open place per parent and benefit, decision 123). */
export const waitlistBenefitInput = z.object({ discountId: z.uuid() }).strict();
export type WaitlistBenefitInput = z.infer<typeof waitlistBenefitInput>;
