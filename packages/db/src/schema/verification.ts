import { sql } from "drizzle-orm";
import { boolean, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { proofRefusalReason, proofStatus } from "./enums";
import { enrollments } from "./profiles";
import { schools } from "./schools";

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

/** Every opening of a proof by a school's staff or an administrator: who and when (part of the LGPD export). */
export const enrollmentProofViews = pgTable(
  "enrollment_proof_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    proofId: uuid("proof_id").notNull().references(() => enrollmentProofs.id, { onDelete: "cascade" }),
    viewerId: uuid("viewer_id").references(() => users.id, { onDelete: "set null" }),
    /** The viewer's school; null when an administrator opened it. */
    viewerSchoolId: uuid("viewer_school_id").references(() => schools.id, { onDelete: "set null" }),
    viewedAt: ts("viewed_at").notNull().defaultNow(),
  },
  (t) => [index("enrollment_proof_views_proof_idx").on(t.proofId, t.viewedAt)],
);
