import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { proofRefusalReason, proofStatus } from "./enums";
import { enrollments } from "./profiles";
import { schools } from "./schools";
import { discountTransactions } from "./benefits";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * One enrollment proof a parent sent, and its verdict (issue 21). The main enrollment's proofs have
 * no `enrollment_id`; the other enrollments' point at their row. A newer proof of the same
 * enrollment sets `replaced_at` on the older ones, which stay for the record.
 */
export const enrollmentProofs = pgTable(
  "enrollment_proofs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** Null: the main enrollment (`profiles.school_id`). */
    enrollmentId: uuid("enrollment_id").references(() => enrollments.id, { onDelete: "cascade" }),
    /** The school the proof names: its staff decide. */
    schoolId: uuid("school_id").notNull().references(() => schools.id, { onDelete: "restrict" }),
    /** Key in the enrollment_proofs bucket. */
    fileKey: text("file_key").notNull(),
    studentName: text("student_name"),
    /** The class and grade the parent declared ("5º ano B"). */
    declaredClass: text("declared_class"),
    status: proofStatus("status").notNull().default("enviado"),
    refusalReason: proofRefusalReason("refusal_reason"),
    refusalNote: text("refusal_note"),
    submittedAt: ts("submitted_at").notNull().defaultNow(),
    decidedAt: ts("decided_at"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    /** An administrator decided (not the school's staff). */
    decidedByAdmin: boolean("decided_by_admin").notNull().default(false),
    /** Last day (São Paulo calendar) a verification holds: 28/29 February of the year after the decision. */
    verifiedUntil: date("verified_until", { mode: "string" }),
    /** When the January e-mail asked for the next year's proof. */
    renewalRequestedAt: ts("renewal_requested_at"),
    replacedAt: ts("replaced_at"),
  },
  (t) => [
    // One live proof per enrollment: the main one (no enrollment id) and each other one.
    uniqueIndex("enrollment_proofs_live_main_uq").on(t.userId).where(sql`enrollment_id is null and replaced_at is null`),
    uniqueIndex("enrollment_proofs_live_other_uq").on(t.enrollmentId).where(sql`replaced_at is null`),
    index("enrollment_proofs_school_idx").on(t.schoolId, t.status, t.submittedAt),
    index("enrollment_proofs_verified_idx").on(t.userId, t.schoolId, t.verifiedUntil).where(sql`status = 'verificado'`),
  ],
);

/**
 * The access log of proofs (issue 27): every opening and every decision by a school's staff or an
 * administrator, with who they were at that moment, why, and the request id that joins the row to
 * the server's log. Append-only: a trigger refuses UPDATE and DELETE except the retention purge
 * (`set local elo.purge = 'on'`) and the cascades of an account deletion (decision 190).
 */
export const enrollmentProofViews = pgTable(
  "enrollment_proof_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    proofId: uuid("proof_id").notNull().references(() => enrollmentProofs.id, { onDelete: "cascade" }),
    viewerId: uuid("viewer_id").references(() => users.id, { onDelete: "set null" }),
    /** The viewer's school; null when an administrator opened it. */
    viewerSchoolId: uuid("viewer_school_id").references(() => schools.id, { onDelete: "set null" }),
    viewedAt: ts("viewed_at").notNull().defaultNow(),
    /** `opening` (the file was opened) or `decision` (confirmed or refused). */
    action: text("action", { enum: ["opening", "decision"] }).notNull().default("opening"),
    /** `verificado` / `recusado` for a decision. */
    outcome: text("outcome"),
    /** As they were at that moment: the organization's name (null: the platform's administration), the role, the first name. */
    organizationName: text("organization_name"),
    viewerRole: text("viewer_role"),
    viewerFirstName: text("viewer_first_name"),
    /** One of ACCESS_PURPOSES; null only on rows recorded before purposes existed. */
    purpose: text("purpose"),
    /** The support ticket, when the purpose is support. */
    ticket: text("ticket"),
    /** Fastify's request id (`reqId` in the server's log). */
    requestId: text("request_id"),
    /** The call came with an API token rather than a browser session. */
    viaApiToken: boolean("via_api_token").notNull().default(false),
  },
  (t) => [index("enrollment_proof_views_proof_idx").on(t.proofId, t.viewedAt), index("enrollment_proof_views_viewed_idx").on(t.viewedAt)],
);

/**
 * Every desk lookup of a voucher (issue 27): which school's staff saw which parent's voucher.
 * The holder's key cascades with the account; the voucher itself stays for the school's counts.
 * Append-only like the proofs' log.
 */
export const voucherDeskViews = pgTable(
  "voucher_desk_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    holderId: uuid("holder_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    voucherId: uuid("voucher_id").notNull().references(() => discountTransactions.id, { onDelete: "cascade" }),
    schoolId: uuid("school_id").references(() => schools.id, { onDelete: "set null" }),
    viewerId: uuid("viewer_id").references(() => users.id, { onDelete: "set null" }),
    organizationName: text("organization_name"),
    viewerRole: text("viewer_role"),
    viewerFirstName: text("viewer_first_name"),
    /** `lookup` (consulted by code), `confirm` (marked used), `cancel`, or `list` (shown in the desk's voucher list). */
    action: text("action", { enum: ["lookup", "confirm", "cancel", "list"] }).notNull(),
    requestId: text("request_id"),
    viaApiToken: boolean("via_api_token").notNull().default(false),
    viewedAt: ts("viewed_at").notNull().defaultNow(),
  },
  (t) => [index("voucher_desk_views_holder_idx").on(t.holderId, t.viewedAt), index("voucher_desk_views_viewed_idx").on(t.viewedAt)],
);

/**
 * The register of security incidents (Resolução CD/ANPD 15/2024, issue 27): what happened, the window,
 * the figures `npm run incident` gave, the measures, and when the ANPD and the holders were told.
 * Kept 5 years from its record (the `purge-access-log` job removes older ones).
 */
export const incidents = pgTable(
  "incidents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    detectedAt: ts("detected_at").notNull(),
    windowFrom: ts("window_from").notNull(),
    windowTo: ts("window_to").notNull(),
    schoolId: uuid("school_id").references(() => schools.id, { onDelete: "set null" }),
    /** Art. 48 § 1 I: the nature of the data affected. */
    nature: text("nature").notNull(),
    accountsAffected: integer("accounts_affected").notNull().default(0),
    childrenAffected: integer("children_affected").notNull().default(0),
    /** Art. 48 § 1 VI: what was or will be done. */
    measures: text("measures").notNull(),
    /** Kept for rows recorded before issue 27's edits: the first communication date. */
    communicatedAt: ts("communicated_at"),
    /** `aberto`, `contido` or `encerrado`. */
    status: text("status", { enum: ["aberto", "contido", "encerrado"] }).notNull().default("aberto"),
    /** Art. 48 § 1 IV: the risks. */
    risks: text("risks"),
    /** Art. 48 § 1 V: why the communication was not immediate. */
    delayReason: text("delay_reason"),
    /** When the ANPD and the holders were told (Resolução CD/ANPD 15/2024). */
    anpdCommunicatedAt: ts("anpd_communicated_at"),
    holdersCommunicatedAt: ts("holders_communicated_at"),
    updatedAt: ts("updated_at"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("incidents_created_idx").on(t.createdAt)],
);
