import { accessMessages, LIMITS, marketplaceFilterMessages, type MarketplaceFilters, type MarketplaceListInput } from "@elo/shared";
import { sql } from "drizzle-orm";
import { AppError } from "../../trpc/errors";
import { queryRows } from "../../db/raw";
import { logoAddress } from "../../storage/logo";
import type { Context } from "../../trpc/init";
import { saoPauloDay } from "../../lib/calendar";
import { countFacets, listPage, type ListRequest } from "./built-statements";
import { decodeSortCursor, encodeSortCursor } from "./cursor";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

/** Who is looking at /home, which decides the page's state. */
export type MarketplaceViewer =
  | { kind: "no_profile" }
  | { kind: "institution" }
  | { kind: "parent"; hasSchool: boolean; profileCompleted: boolean; proofSubmitted: boolean; enrollmentVerified: boolean };

/**
 * marketplace.list: one page of the benefits the caller may see (DECISIONS.md's four rules), Gold
 * schools first, then newest, then by id (a total order, so keyset pages never skip or repeat);
 * the caller's own claims stay in view marked `claimed`, and sold-out benefits stay in view with the
 * caller's waitlist place, if any (decision 123). One statement (docs/decisions/083, 086, 100, 145):
 * - `keys`: the viewer's place keys in the read model marketplace_offers (active benefits of
 *   Silver/Gold schools, each under the places that see it, with its Gold flag and creation time);
 * - `page`: each key's index range in page order, the rules that depend on the viewer (niche, own
 *   school, enrollments) checked on its entries until the page's limit + 1 pass, the ranges merged:
 *   a page reads about as many entries as it has cards, however many the viewer may see;
 * - `items`: the cards of the page, built from their benefits and schools.
 */
export async function listMarketplace({ ctx, input }: { ctx: AuthedContext; input?: MarketplaceListInput }) {
  const limit = input?.limit ?? LIMITS.marketplacePageSize;
  const sort = input?.sort ?? "default";
  const cursor = input?.cursor ? decodeSortCursor(input.cursor, sort) : null;
  const filters: MarketplaceFilters = { ...input, sort };
  if (filters.modality !== undefined && filters.category !== undefined) await checkModality(ctx, filters.category, filters.modality);
  const request: ListRequest = { userId: ctx.user.id, today: saoPauloDay(ctx.clock.now()), filters, sort, cursor, limit };
  // Each statement's text is built once per shape and reused with this request's values
  // (decisions 213, 215; PGlite and transactions build their own). The facet counts: one more
  // statement, only when asked and on the first page (the next pages share the first's filters,
  // so /home asks on every page and pays once).
  const [[row], facets] = await Promise.all([listPage(ctx.db, request), input?.facets && !cursor ? countFacets(ctx.db, request) : null]);

  const v = row?.viewer ?? null;
  const viewer: MarketplaceViewer = !v
    ? { kind: "no_profile" }
    : v.profileType === "institution"
      ? { kind: "institution" }
      : { kind: "parent", hasSchool: v.schoolId !== null, profileCompleted: v.profileCompleted, proofSubmitted: v.proofSubmitted, enrollmentVerified: v.verified };

  const helpingSchools = (row?.helping ?? []).map((h) => ({ id: h.id, name: h.name, logoUrl: logoAddress(ctx.storage, h.logoUrl) }));
  const rows = row?.items ?? [];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last ? encodeSortCursor({ sort, key: sortKeyText(last.sortKey), createdAt: last.createdAt, id: last.discountId }) : null;
  const items = page.map((b) => ({
    discountId: b.discountId,
    className: b.className,
    discountPercentage: Number(b.discountPercentage),
    discountValidity: b.discountValidity,
    numberOfStudents: b.numberOfStudents,
    /** Days to present the voucher after claiming (decision 121); null = until its validity ends. */
    holdDays: b.holdDays,
    schoolId: b.schoolId,
    schoolName: b.schoolName,
    schoolLogoUrl: logoAddress(ctx.storage, b.schoolLogoUrl),
    monthlyFee: Number(b.monthlyFee),
    discountedFee: Number(b.discountedFee),
    gold: b.gold,
    claimed: b.claimed,
    /** The viewer's place in this benefit's waitlist (decision 123): waiting with a position, or holding an offer. */
    waitlist: b.waitlist
      ? { status: b.waitlist.status, position: b.waitlist.status === "waiting" ? b.waitlist.position : null, offerExpiresAt: b.waitlist.offerExpiresAt ? new Date(b.waitlist.offerExpiresAt) : null }
      : null,
    /** 'Exigir matrícula verificada' (issue 21). */
    requiresVerifiedEnrollment: b.requiresVerified,
  }));
  // The helping schools are the viewer's own schools, the same for every card: sent once.
  // The facets' type written out (not the interface's name), so docs/api.md shows its fields.
  const result: {
    viewer: MarketplaceViewer;
    helpingSchools: typeof helpingSchools;
    items: typeof items;
    nextCursor: string | null;
    facets?: {
      total: number;
      categories: Array<{ id: number; name: string; count: number }>;
      modalities: Array<{ id: number; name: string; count: number }>;
      where: { neighborhood: number; city: number; network: number };
      fees: Array<{ max: number; count: number }>;
      discounts: Array<{ min: number; count: number }>;
      withSlots: number;
      access: { open: number; claimable: number };
      without: { q?: number; category?: number; modality?: number; where?: number; maxFee?: number; minDiscount?: number; withSlots?: number; access?: number };
    };
  } = {
    viewer,
    helpingSchools,
    items,
    nextCursor,
  };
  if (facets) result.facets = facets;
  return result;
}

/** The first sort key as the cursor carries it: the Gold flag as 1/0, numbers as PostgreSQL wrote them. */
function sortKeyText(key: string | number | boolean): string {
  if (typeof key === "boolean") return key ? "1" : "0";
  return typeof key === "number" ? String(key) : key;
}

/** A modality of another niche than the one chosen is a bad request, in Portuguese. */
async function checkModality(ctx: AuthedContext, category: number, modality: number) {
  const [found] = await queryRows<{ ok: boolean }>(ctx.db, sql`select exists (select 1 from modalities where id = ${modality} and category_id = ${category}) as ok`);
  if (!found?.ok) throw new AppError("BAD_REQUEST", { title: accessMessages.validationTitle, description: marketplaceFilterMessages.invalidModality });
}

export type MarketplaceList = Awaited<ReturnType<typeof listMarketplace>>;
export type MarketplaceBenefit = MarketplaceList["items"][number];
