import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { outboxStatus } from "./enums";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Every e-mail goes through here; a worker sends pending rows with backoff. */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    to: text("to_address").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    status: outboxStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    sentAt: ts("sent_at"),
  },
  (t) => [index("email_outbox_pending_idx").on(t.status, t.nextAttemptAt)],
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
export const deletionRecords = pgTable("deletion_records", {
  id: uuid("id").primaryKey().defaultRandom(),
  deletedAt: ts("deleted_at").notNull().defaultNow(),
  reason: text("reason").notNull(),
});

/** Small key-value facts about the database itself (e.g. which reference data version is loaded). */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
