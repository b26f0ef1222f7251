import { readMarketplaceSearch } from "@elo/shared";
import { createFileRoute } from "@tanstack/react-router";
import { HomePage } from "../../features/marketplace/HomePage";

/**
 * /home: the parent's marketplace (spec 1 §2 "Parent home"). Filters, search and sort live in the
 * address (issue 31), read field by field with marketplace.list's own schema: an invalid parameter
 * is dropped, the others kept, and no error page is shown.
 */
export const Route = createFileRoute("/_auth/home")({
  validateSearch: (raw: Record<string, unknown>) => readMarketplaceSearch(raw),
  component: HomePage,
});
