import { boolean, date, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { enrollmentPeriod, profileType } from "./enums";
import { cities, neighborhoods, states } from "./reference";
import { schools } from "./schools";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const profiles = pgTable(
  "profiles",
  {
    userId: uuid("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
    profileType: profileType("profile_type").notNull().default("parent"),
    fullName: text("full_name"),
    phone: text("phone"),
    relationshipType: text("relationship_type"),
    /** Location chosen at signup (UF code, city and neighborhood names, with their ids). */
    state: text("state"),
    city: text("city"),
    neighborhood: text("neighborhood"),
    stateId: integer("state_id").references(() => states.id),
    cityId: integer("city_id").references(() => cities.id),
    neighborhoodId: integer("neighborhood_id").references(() => neighborhoods.id),
    studentName: text("student_name"),
    studentBirthDate: date("student_birth_date", { mode: "string" }),
    studentCpf: text("student_cpf"),
    studentAddress: text("student_address"),
    studentAddressComplement: text("student_address_complement"),
    studentNeighborhood: text("student_neighborhood"),
    studentZipCode: text("student_zip_code"),
    /** The parent's main school, or the institution user's school once approved. */
    schoolName: text("school_name"),
    schoolId: uuid("school_id").references(() => schools.id, { onDelete: "set null" }),
    publicSchoolPaidActivity: boolean("public_school_paid_activity").notNull().default(false),
    position: text("position"),
    /** Key in the avatars bucket. */
    avatarUrl: text("avatar_url"),
    /** Key in the enrollment_proofs bucket. */
    enrollmentProofUrl: text("enrollment_proof_url"),
    enrollmentProofSubmitted: boolean("enrollment_proof_submitted").notNull().default(false),
    profileCompleted: boolean("profile_completed").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("profiles_school_idx").on(t.schoolId), index("profiles_type_created_idx").on(t.profileType, t.createdAt)],
);

/** A parent's other paid enrollments (up to three are shown on /meus-dados). */
export const enrollments = pgTable(
  "enrollments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    schoolId: uuid("school_id").references(() => schools.id, { onDelete: "restrict" }),
    institutionName: text("institution_name"),
    institutionType: text("institution_type").notNull().default("escola"),
    studentName: text("student_name"),
    enrollmentNumber: text("enrollment_number"),
    period: enrollmentPeriod("period"),
    classNumber: text("class_number"),
    startDate: date("start_date", { mode: "string" }),
    endDate: date("end_date", { mode: "string" }),
    notes: text("notes"),
    /** Key in the enrollment_proofs bucket. */
    proofUrl: text("proof_url"),
    status: text("status").notNull().default("active"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("enrollments_user_idx").on(t.userId, t.createdAt), index("enrollments_school_idx").on(t.schoolId)],
);

export const userConsents = pgTable(
  "user_consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    termsAccepted: boolean("terms_accepted").notNull(),
    privacyAccepted: boolean("privacy_accepted").notNull(),
    dataProcessingConsent: boolean("data_processing_consent").notNull(),
    marketingConsent: boolean("marketing_consent").notNull().default(false),
    consentVersion: text("consent_version").notNull().default("1.0"),
    userAgent: text("user_agent"),
    acceptedAt: ts("accepted_at").notNull().defaultNow(),
  },
  (t) => [index("user_consents_user_idx").on(t.userId, t.acceptedAt)],
);
