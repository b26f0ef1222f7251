import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { appRole } from "./enums";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Always stored trimmed and lower-cased. */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** When the owner opened the confirmation link; null until then (accounts older than issue 21 too). */
    emailConfirmedAt: ts("email_confirmed_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

/** Lucia-guide sessions: the id is the SHA-256 of the cookie token. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: appRole("role").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/**
 * One row per e-mail: the lockout's counter, reserved atomically before each password check
 * (decision 105). `failedCount` counts the attempts of the window (checks reserved, whether
 * failed or still running, and refusals); `inFlight` those whose check has not finished yet.
 */
export const loginThrottles = pgTable("login_throttles", {
  email: text("email").primaryKey(),
  failedCount: integer("failed_count").notNull().default(0),
  inFlight: integer("in_flight").notNull().default(0),
  windowStartedAt: ts("window_started_at").notNull().defaultNow(),
  blockedUntil: ts("blocked_until"),
});

/** Audit trail of every login attempt. */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    success: boolean("success").notNull(),
    userAgent: text("user_agent"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("login_attempts_email_idx").on(t.email, t.createdAt)],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    /** SHA-256 of the token sent by e-mail. */
    id: text("id").primaryKey(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/** Single-use links that confirm a user's e-mail address (24 h). */
export const emailConfirmationTokens = pgTable(
  "email_confirmation_tokens",
  {
    /** SHA-256 of the token sent by e-mail. */
    id: text("id").primaryKey(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** The benefit chosen on a public page before signing up: every link of the account carries it (issue 26). */
    benefitId: uuid("benefit_id"),
  },
  // Also what the per-address resend limit counts.
  (t) => [index("email_confirmation_tokens_user_idx").on(t.userId, t.createdAt)],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the secret shown once. */
    tokenHash: text("token_hash").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastUsedAt: ts("last_used_at"),
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("api_tokens_hash_uq").on(t.tokenHash), index("api_tokens_user_idx").on(t.userId).where(sql`revoked_at is null`)],
);
