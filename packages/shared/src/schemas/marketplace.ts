import { z } from "zod";
import { id, text } from "./fields";
import { hasAtMostTwoDecimals } from "../money";
import { marketplaceFilterMessages } from "../messages/marketplace-filters";
import { marketplaceMessages } from "../messages/marketplace";
import { coerceSearchValue, MARKETPLACE_ACCESS, MARKETPLACE_SORTS, MARKETPLACE_WHERE } from "../marketplace-search";
import { LIMITS } from "../constants";

/**
 * The filters, search and sort of the marketplace (issue 31, decision 170): one schema for
 * marketplace.list's input, /home's search params and the typed client. Every field is optional.
 */
export const marketplaceFilterFields = {
  /** Search by school, class or modality name: accent- and case-insensitive, typo-tolerant. */
  q: text()
    .trim()
    .max(LIMITS.marketplaceSearchMax, marketplaceFilterMessages.searchTooLong(LIMITS.marketplaceSearchMax))
    .transform((v) => (v === "" ? undefined : v))
    .optional(),
  /** The benefit's niche (category id). */
  category: id.optional(),
  /** The benefit's modality (under its niche). */
  modality: id.optional(),
  where: z.enum(MARKETPLACE_WHERE, marketplaceFilterMessages.invalidWhere).optional(),
  /** Monthly fee after the discount, at most this many reais. */
  maxFee: z
    .number(marketplaceFilterMessages.invalidMaxFee)
    .min(0, marketplaceFilterMessages.invalidMaxFee)
    .max(LIMITS.marketplaceMaxFee, marketplaceFilterMessages.invalidMaxFee)
    .refine(hasAtMostTwoDecimals, marketplaceFilterMessages.invalidMaxFee)
    .optional(),
  /** Discount of at least this many percent. */
  minDiscount: z
    .number(marketplaceFilterMessages.invalidMinDiscount)
    .min(0, marketplaceFilterMessages.invalidMinDiscount)
    .max(100, marketplaceFilterMessages.invalidMinDiscount)
    .refine(hasAtMostTwoDecimals, marketplaceFilterMessages.invalidMinDiscount)
    .optional(),
  /** Only benefits with slots left. */
  withSlots: z.boolean(marketplaceFilterMessages.invalidFlag).optional(),
  access: z.enum(MARKETPLACE_ACCESS, marketplaceFilterMessages.invalidAccess).optional(),
  sort: z.enum(MARKETPLACE_SORTS, marketplaceFilterMessages.invalidSort).optional(),
};
export const marketplaceFilters = z.object(marketplaceFilterFields);
export type MarketplaceFilters = z.infer<typeof marketplaceFilters>;
export type MarketplaceFilterKey = keyof typeof marketplaceFilterFields;

const badCursor = marketplaceMessages.invalidCursor;
const badLimit = marketplaceFilterMessages.invalidLimit(LIMITS.marketplacePageMax);

/**
 * marketplace.list: one page of cards, filtered and sorted. `cursor` is the opaque `nextCursor` of
 * the previous page (absent or null for the first; it belongs to the same filters and sort);
 * unknown keys (tRPC's infinite-query `direction`) are ignored.
 */
export const marketplaceListInput = z
  .object({
    ...marketplaceFilterFields,
    cursor: z.string(badCursor).max(200, badCursor).regex(/^[A-Za-z0-9_-]+$/, badCursor).nullish(),
    limit: z.number(badLimit).int(badLimit).min(1, badLimit).max(LIMITS.marketplacePageMax, badLimit).optional(),
    /** Also answer `facets` on the first page (no cursor): how many benefits each filter option would leave (one more statement). */
    facets: z.boolean(marketplaceFilterMessages.invalidFlag).optional(),
  })
  .optional();
export type MarketplaceListInput = z.infer<typeof marketplaceListInput>;

/**
 * The address read field by field with this schema: the reference readMarketplaceSearch (zod-free,
 * for /home's first load) is tested against (packages/shared/test/marketplace-search.test.ts).
 */
export function readMarketplaceSearchWithSchema(raw: Record<string, unknown>): MarketplaceFilters {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(marketplaceFilterFields) as MarketplaceFilterKey[]) {
    const value = coerceSearchValue(key, raw[key]);
    if (value === undefined || value === null) continue;
    const parsed = marketplaceFilterFields[key].safeParse(value);
    if (parsed.success && parsed.data !== undefined && parsed.data !== false) out[key] = parsed.data;
  }
  if (out.sort === "default") delete out.sort;
  return out as MarketplaceFilters;
}

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
