import type { MarketplaceFilters } from "@elo/shared";

/** How many filters are on (the sort and the search are not filters here). */
export function activeCount(f: MarketplaceFilters): number {
  return (["category", "modality", "where", "maxFee", "minDiscount", "withSlots", "access"] as const).filter((k) => f[k] !== undefined).length;
}
