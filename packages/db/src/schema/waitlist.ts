import { sql } from "drizzle-orm";
import { index, pgTable, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { discountTransactions, discounts } from "./benefits";
import { waitlistStatus } from "./enums";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A parent waiting for a sold-out benefit (decision 123). `waiting` entries queue by `created_at`;
 * an `offered` entry holds one slot for its parent alone (taken out of `number_of_students`) until
 * `offer_expires_at`; it ends `claimed`, `lapsed` or `left`.
 */
export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    discountId: uuid("discount_id").notNull().references(() => discounts.id, { onDelete: "cascade" }),
    /** Null once the parent deleted the account: a held slot still lapses back to the benefit. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    status: waitlistStatus("status").notNull().default("waiting"),
    createdAt: ts("created_at").notNull().defaultNow(),
    offeredAt: ts("offered_at"),
    offerExpiresAt: ts("offer_expires_at"),
    endedAt: ts("ended_at"),
    /** The voucher an accepted offer became. */
    transactionId: uuid("transaction_id").references(() => discountTransactions.id, { onDelete: "set null" }),
  },
  (t) => [
    // One open place per parent and benefit; after leaving or a lapse they may join again, at the back.
    uniqueIndex("waitlist_entries_open_uq").on(t.discountId, t.userId).where(sql`status in ('waiting', 'offered')`),
    index("waitlist_entries_queue_idx").on(t.discountId, t.createdAt, t.id).where(sql`status = 'waiting'`),
    index("waitlist_entries_offers_idx").on(t.offerExpiresAt).where(sql`status = 'offered'`),
    index("waitlist_entries_user_idx").on(t.userId),
  ],
);
