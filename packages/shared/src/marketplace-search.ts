// /home's address (issue 31, decision 170), without zod: the route's validateSearch runs on the
// first load of every page, whose JavaScript budget (decision 155) has no room for zod. The rules
// are marketplaceFilterFields' (schemas/marketplace.ts); a property test keeps the two equal.
import { LIMITS } from "./constants";
import { hasAtMostTwoDecimals } from "./money";
import type { MarketplaceFilters } from "./schemas/marketplace";

/** The orders /home and marketplace.list offer; `default` is the spec's: Gold schools first, then newest. */
export const MARKETPLACE_SORTS = ["default", "discount", "fee", "scope", "newest"] as const;
export type MarketplaceSort = (typeof MARKETPLACE_SORTS)[number];
/** Where a benefit reaches the parent: its scope as the parent sees it (neighborhood, city, whole network). */
export const MARKETPLACE_WHERE = ["neighborhood", "city", "network"] as const;
export type MarketplaceWhere = (typeof MARKETPLACE_WHERE)[number];
/** open: does not require a verified enrollment; claimable: the parent can claim it now (slots left, not claimed, verification met). */
export const MARKETPLACE_ACCESS = ["open", "claimable"] as const;
export type MarketplaceAccess = (typeof MARKETPLACE_ACCESS)[number];

export const MARKETPLACE_FILTER_KEYS = ["q", "category", "modality", "where", "maxFee", "minDiscount", "withSlots", "access", "sort"] as const;
const NUMERIC = new Set(["category", "modality", "maxFee", "minDiscount"]);
/** PostgreSQL's integer: as fields.ts's PG_INT_MAX. */
const INT_MAX = 2_147_483_647;

/** What the address may carry for a key, read as the API would take it ("200" → 200, "true" → true). */
export function coerceSearchValue(key: string, value: unknown): unknown {
  if (typeof value === "string" && NUMERIC.has(key) && value.trim() !== "") return Number(value);
  if (typeof value === "string" && key === "withSlots") return value === "true" ? true : value === "false" ? false : value;
  if (typeof value === "number" && key === "q") return String(value);
  return value;
}

const isAmount = (v: unknown, max: number): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= max && hasAtMostTwoDecimals(v);
const isId = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0 && v <= INT_MAX;

/**
 * /home's search params: each field read on its own, so an invalid one is dropped and the rest kept
 * (no error page); what means "no filter" (empty search, default order, withSlots false) is left out.
 */
export function readMarketplaceSearch(raw: Record<string, unknown>): MarketplaceFilters {
  const out: Record<string, unknown> = {};
  const v = (key: string) => coerceSearchValue(key, raw[key]);
  const q = v("q");
  if (typeof q === "string" && !q.includes("\u0000")) {
    const trimmed = q.trim();
    if (trimmed !== "" && trimmed.length <= LIMITS.marketplaceSearchMax) out.q = trimmed;
  }
  for (const key of ["category", "modality"]) if (isId(v(key))) out[key] = v(key);
  if ((MARKETPLACE_WHERE as readonly unknown[]).includes(v("where"))) out.where = v("where");
  if (isAmount(v("maxFee"), LIMITS.marketplaceMaxFee)) out.maxFee = v("maxFee");
  if (isAmount(v("minDiscount"), 100)) out.minDiscount = v("minDiscount");
  if (v("withSlots") === true) out.withSlots = true;
  if ((MARKETPLACE_ACCESS as readonly unknown[]).includes(v("access"))) out.access = v("access");
  const sort = v("sort");
  if ((MARKETPLACE_SORTS as readonly unknown[]).includes(sort) && sort !== "default") out.sort = sort;
  return out as MarketplaceFilters;
}

/** The most pages /home loads from its address (`page`): far past a capital's ~40 at full scale. */
export const MARKETPLACE_PAGE_MAX = 500;

/**
 * How many pages of /home's list the address asks for (`page`, issue 31): a whole number from 2 to
 * MARKETPLACE_PAGE_MAX, or undefined (the first page) for anything else, dropped with no error.
 */
export function readMarketplacePage(raw: unknown): number | undefined {
  const n = typeof raw === "string" && /^\d{1,4}$/.test(raw.trim()) ? Number(raw) : raw;
  return typeof n === "number" && Number.isInteger(n) && n >= 2 && n <= MARKETPLACE_PAGE_MAX ? n : undefined;
}
