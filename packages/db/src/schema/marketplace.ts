import { boolean, index, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The marketplace's read model (decision 145): one row per active benefit of a school with an
 * active Silver or Gold plan and per place key that can find it (rules 1, 3 and 4 of DECISIONS.md).
 * A parent's page reads the rows of the parent's few place keys in page order and checks only the
 * rules that depend on the parent (niche, own school, enrollments).
 *
 * Kept by triggers on discounts, schools and subscriptions (migration 0010), never written by the
 * application; `marketplace_offers_expected` is the view it must always equal.
 */
export const marketplaceOffers = pgTable(
  "marketplace_offers",
  {
    schoolId: uuid("school_id").notNull(),
    discountId: uuid("discount_id").notNull(),
    /** A place a parent's main school may share with the offering school: see marketplace_offer_keys. */
    placeKey: text("place_key").notNull(),
    /** The school's active plan is Gold: its benefits come first. */
    gold: boolean("gold").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    /** coalesce(school's niche, benefit's niche): rule 2 compares it with the parent's main school. */
    nicheId: integer("niche_id"),
    // What /home's filters, search and sorts read (issue 31, decision 170), copied from the benefit.
    /** The benefit's own niche and modality (the filter), not the school's. */
    categoryId: integer("category_id").notNull(),
    modalityId: integer("modality_id").notNull(),
    discountedFee: numeric("discounted_fee", { precision: 10, scale: 2, mode: "number" }).notNull(),
    discountPercentage: numeric("discount_percentage", { precision: 5, scale: 2, mode: "number" }).notNull(),
    /** No slots left (number_of_students = 0): changes only when a claim takes the last slot or one comes back. */
    soldOut: boolean("sold_out").notNull(),
    requiresVerified: boolean("requires_verified").notNull(),
    /** Class, modality and school names, folded (foldSql): what the search compares, with pg_trgm for typos. */
    searchText: text("search_text").notNull(),
  },
  (t) => [
    // Refreshes go by school, or by school and benefit (the triggers always know the school).
    primaryKey({ columns: [t.schoolId, t.discountId, t.placeKey] }),
    // A page: the rows of one place key in page order, with what the parent's own rules read.
    // The filters' columns and the search's text are keys too (Drizzle cannot declare INCLUDE), so
    // filtered and searched pages and the facet counts stay index-only scans (decision 173).
    index("marketplace_offers_page_idx").on(
      t.placeKey,
      t.gold.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.discountId,
      t.schoolId,
      t.nicheId,
      t.categoryId,
      t.modalityId,
      t.discountedFee,
      t.discountPercentage,
      t.soldOut,
      t.requiresVerified,
      t.searchText,
    ),
    // The pages sorted by discount and by fee after discount (decision 173): each key's rows in
    // that order, so a page stops at its limit instead of sorting every row of the key; the same
    // columns as the page index after the order's, the search's text included, so they stay
    // index-only too.
    index("marketplace_offers_discount_idx").on(
      t.placeKey,
      t.discountPercentage.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.discountId,
      t.schoolId,
      t.nicheId,
      t.categoryId,
      t.modalityId,
      t.discountedFee,
      t.gold,
      t.soldOut,
      t.requiresVerified,
      t.searchText,
    ),
    index("marketplace_offers_fee_idx").on(
      t.placeKey,
      t.discountedFee,
      t.createdAt.desc().nullsFirst(),
      t.discountId,
      t.schoolId,
      t.nicheId,
      t.categoryId,
      t.modalityId,
      t.discountPercentage,
      t.gold,
      t.soldOut,
      t.requiresVerified,
      t.searchText,
    ),
  ],
);
