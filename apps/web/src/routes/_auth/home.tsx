import { MARKETPLACE_FILTER_KEYS, readMarketplacePage, readMarketplaceSearch, type MarketplaceFilters } from "@elo/shared";
import { createFileRoute } from "@tanstack/react-router";
import { HomePage } from "../../features/marketplace/HomePage";

/**
 * /home: the parent's marketplace (spec 1 §2 "Parent home"). Filters, search, sort and page live
 * in the address (issue 31), read field by field by the rules of marketplace.list's schema (zod-free here,
 * for the first-load budget; a property test keeps them equal): an invalid parameter is dropped,
 * the others kept, and no error page is shown.
 */
const DROPPED = Object.fromEntries(MARKETPLACE_FILTER_KEYS.map((k) => [k, undefined])) as MarketplaceFilters;

export const Route = createFileRoute("/_auth/home")({
  // Every field named, undefined when dropped: the parent routes pass the raw address through, and
  // a dropped field must override it rather than let the invalid text reach the query.
  // `beneficio`: 'Quero este desconto' on a public page (issue 26) brings the parent here with it chosen.
  // `page`: how many pages of cards are shown ("Carregar mais" adds one), so reload, back and
  // forward land on the same page; anything but a whole number from 2 up is dropped.
  validateSearch: (raw: Record<string, unknown>): MarketplaceFilters & { page?: number; beneficio?: string } => ({
    ...DROPPED,
    ...readMarketplaceSearch(raw),
    page: readMarketplacePage(raw.page),
    beneficio: typeof raw.beneficio === "string" && /^[0-9a-f-]{36}$/i.test(raw.beneficio) ? raw.beneficio : undefined,
  }),
  component: HomePage,
});
