import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { schools } from "./schools";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A school's webhook endpoint (issue 29, docs/decisions/200). `secret` signs every delivery;
 * after a rotation `previous_secret` signs alongside it until `previous_secret_until`. `status`
 * 'paused' stops deliveries (by the staff, or 'failing' after 3 days of failures).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    schoolId: uuid("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: ts("previous_secret_until"),
    status: text("status", { enum: ["active", "paused"] }).notNull().default("active"),
    /** Why it is paused: 'manual' (the staff) or 'failing' (3 days of failed deliveries). */
    pausedReason: text("paused_reason", { enum: ["manual", "failing"] }),
    /** The first failure of the current run of failures; null after a success. */
    failingSince: ts("failing_since"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_school_idx").on(t.schoolId)],
);

/** What happened, recorded by triggers in the transaction of the change (docs/decisions/201). */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    schoolId: uuid("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: ts("created_at").notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index("webhook_events_school_idx").on(t.schoolId, t.createdAt)],
);

/** One event for one endpoint: leased by a sender with FOR UPDATE SKIP LOCKED, retried with backoff. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Due at; a fresh delivery is due at once under any clock (the epoch). */
    nextAttemptAt: ts("next_attempt_at").notNull().default(sql`'epoch'::timestamptz`),
    createdAt: ts("created_at").notNull().default(sql`clock_timestamp()`),
    /** The first try (the app's clock): after 3 days of failures the delivery is given up. */
    firstAttemptAt: ts("first_attempt_at"),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_uq").on(t.eventId, t.endpointId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

/** Each try of a delivery, for the log: HTTP status (null: no answer), latency and the answer's first 500 bytes. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    at: ts("at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    response: text("response").notNull().default(""),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_endpoint_idx").on(t.endpointId, t.at)],
);
