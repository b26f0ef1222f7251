import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

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
  },
  (t) => [
    // Refreshes go by school, or by school and benefit (the triggers always know the school).
    primaryKey({ columns: [t.schoolId, t.discountId, t.placeKey] }),
    // A page: the rows of one place key in page order, with what the parent's own rules read.
    index("marketplace_offers_page_idx").on(t.placeKey, t.gold.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.discountId, t.schoolId, t.nicheId),
  ],
);
