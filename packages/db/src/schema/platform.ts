import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { outboxStatus } from "./enums";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Every e-mail goes through here; a worker sends pending rows with backoff. A row is queued in the
 * same transaction (or statement) as the change it reports, and belongs to people by key: `user_id`
 * is the recipient's account (null for mail to the platform's ADMIN_EMAIL), `about_user_id` the
 * account an admin-bound message is about; both go with the account (docs/decisions/102).
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    to: text("to_address").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    aboutUserId: uuid("about_user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The template's data: a row queued by SQL (the claim) is rendered from it, by the app right after or by the mailer. */
    data: jsonb("data"),
    /** Null until rendered. */
    subject: text("subject"),
    html: text("html"),
    text: text("text"),
    status: outboxStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    sentAt: ts("sent_at"),
  },
  (t) => [
    index("email_outbox_pending_idx").on(t.status, t.nextAttemptAt),
    index("email_outbox_user_idx").on(t.userId),
    index("email_outbox_about_user_idx").on(t.aboutUserId),
  ],
);

export const contactMessages = pgTable("contact_messages", {
  id: uuid("id").primaryKey().defaultRandom(),
  subject: text("subject").notNull(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  message: text("message").notNull(),
  userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** What is kept after an account deletion: only when and why. */
export const deletionRecords = pgTable(
  "deletion_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deletedAt: ts("deleted_at").notNull().defaultNow(),
    reason: text("reason").notNull(),
    /**
     * SHA-256 (hex) of the deleted account's id, never the id itself: the ledger a restore replays so
     * that an older backup never brings the account back (decision 182). Null for records made before.
     */
    accountHash: text("account_hash"),
  },
  (t) => [uniqueIndex("deletion_records_account_hash_idx").on(t.accountHash)],
);

/** Each scheduled job's last run, success and error, whichever server process ran it (the admin's Operação page). */
export const jobRuns = pgTable("job_runs", {
  job: text("job").primaryKey(),
  lastRunAt: ts("last_run_at").notNull(),
  lastSuccessAt: ts("last_success_at"),
  lastErrorAt: ts("last_error_at"),
  lastError: text("last_error"),
  /** How much the last successful run did (vouchers expired, offers lapsed...). */
  lastDone: integer("last_done").notNull().default(0),
  runs: integer("runs").notNull().default(0),
  failures: integer("failures").notNull().default(0),
});

/**
 * Operation counts per minute shared by every process (decision 188): rate-limit refusals by limit
 * (buffered in each process and added here every few seconds), job runs and failures by job. The
 * admin's Operação page sums them; rows older than two days are dropped.
 */
export const opsCounts = pgTable(
  "ops_counts",
  {
    minute: ts("minute").notNull(),
    name: text("name").notNull(),
    label: text("label").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.name, t.label] })],
);

/** Small key-value facts about the database itself (e.g. which reference data version is loaded). */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
