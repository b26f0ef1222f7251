import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { schools } from "./schools";
import { incidents } from "./verification";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Every listing that showed a parent's name, e-mail or child to someone else (issue 27, decision
 * 192): one row per parent shown, all rows of one listing written by one INSERT and sharing its
 * `listing_id`. Today: the administrators' parents table on /admin-pais. Append-only like the
 * proofs' log; an account deletion moves the parent's rows to `erased_access_log` (decision 194).
 */
export const parentListingViews = pgTable(
  "parent_listing_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    holderId: uuid("holder_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    listingId: uuid("listing_id").notNull(),
    /** Which listing: `admin_parents`. */
    listing: text("listing", { enum: ["admin_parents"] }).notNull(),
    viewerId: uuid("viewer_id").references(() => users.id, { onDelete: "set null" }),
    viewerSchoolId: uuid("viewer_school_id").references(() => schools.id, { onDelete: "set null" }),
    organizationName: text("organization_name"),
    viewerRole: text("viewer_role"),
    viewerFirstName: text("viewer_first_name"),
    purpose: text("purpose").notNull(),
    ticket: text("ticket"),
    requestId: text("request_id"),
    viaApiToken: boolean("via_api_token").notNull().default(false),
    viewedAt: ts("viewed_at").notNull().defaultNow(),
  },
  (t) => [index("parent_listing_views_holder_idx").on(t.holderId, t.viewedAt), index("parent_listing_views_viewed_idx").on(t.viewedAt)],
);

/**
 * What stays of a deleted account's access log (decision 194, LGPD art. 37 and 16 I): the
 * operations (who, in which role, why, when, request id), keyed by the hash of the account's id
 * (the deletion ledger's key), without the child's name, the file or the voucher code. Purged with
 * the rule of decision 190, the data's life ending at the erasure.
 */
export const erasedAccessLog = pgTable(
  "erased_access_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountHash: text("account_hash").notNull(),
    /** `proof`, `voucher` or `listing`. */
    kind: text("kind", { enum: ["proof", "voucher", "listing"] }).notNull(),
    action: text("action").notNull(),
    outcome: text("outcome"),
    viewerId: uuid("viewer_id").references(() => users.id, { onDelete: "set null" }),
    viewerSchoolId: uuid("viewer_school_id").references(() => schools.id, { onDelete: "set null" }),
    organizationName: text("organization_name"),
    viewerRole: text("viewer_role"),
    viewerFirstName: text("viewer_first_name"),
    purpose: text("purpose"),
    ticket: text("ticket"),
    requestId: text("request_id"),
    viaApiToken: boolean("via_api_token").notNull().default(false),
    viewedAt: ts("viewed_at").notNull(),
    erasedAt: ts("erased_at").notNull(),
  },
  (t) => [index("erased_access_log_erased_idx").on(t.erasedAt), index("erased_access_log_viewed_idx").on(t.viewedAt), index("erased_access_log_hash_idx").on(t.accountHash)],
);

/**
 * Each change to a recorded incident (issue 27, decision 195): the fields changed, before and after,
 * who changed them and through what (the admin page or the CLI). Appended, never rewritten; goes
 * with its incident after the register's 5 years.
 */
export const incidentRevisions = pgTable(
  "incident_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    incidentId: uuid("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    /** `{ field: { from, to } }` for each field changed. */
    changes: jsonb("changes").$type<Record<string, { from: unknown; to: unknown }>>().notNull(),
    changedBy: uuid("changed_by").references(() => users.id, { onDelete: "set null" }),
    /** The e-mail of who changed it, as it was (kept after their account goes). */
    changedByEmail: text("changed_by_email"),
    via: text("via", { enum: ["admin", "cli"] }).notNull(),
    changedAt: ts("changed_at").notNull().defaultNow(),
  },
  (t) => [index("incident_revisions_incident_idx").on(t.incidentId, t.changedAt)],
);
