import type { inferOutput } from "@trpc/tanstack-react-query";
import type { trpc } from "../../lib/trpc";

/** One page of the marketplace (cards plus what is the same on every page). */
export type MarketplaceList = inferOutput<typeof trpc.marketplace.list>;
export type MarketplaceBenefit = MarketplaceList["items"][number];
export type HelpingSchool = MarketplaceList["helpingSchools"][number];
export type ParentViewer = Extract<MarketplaceList["viewer"], { kind: "parent" }>;
export type ClaimSummary = inferOutput<typeof trpc.claim.byId>;
export type ClaimHistoryEntry = inferOutput<typeof trpc.claim.history>[number];
export type WaitlistEntry = inferOutput<typeof trpc.waitlist.mine>[number];
export type MarketplaceFacets = NonNullable<MarketplaceList["facets"]>;
