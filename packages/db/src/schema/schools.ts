import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { foldSql, slugSql } from "../fold";
import { users } from "./auth";
import { membershipStatus, planType, schoolOrigin } from "./enums";
import { categories, cities, modalities, neighborhoods, states } from "./reference";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const schools = pgTable(
  "schools",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Lower-case, accent-free, single-spaced name: the key for matching and search. */
    nameKey: text("name_key").notNull(),
    uf: text("uf"),
    city: text("city"),
    neighborhood: text("neighborhood"),
    /** The identity keys: UF upper-case, city and neighborhood accent-, case- and spacing-free (see foldSql). */
    ufKey: text("uf_key").generatedAlwaysAs(sql`upper(btrim("uf"))`),
    cityKey: text("city_key").generatedAlwaysAs(foldSql(sql`"city"`)),
    neighborhoodKey: text("neighborhood_key").generatedAlwaysAs(foldSql(sql`"neighborhood"`)),
    stateId: integer("state_id").references(() => states.id),
    cityId: integer("city_id").references(() => cities.id),
    neighborhoodId: integer("neighborhood_id").references(() => neighborhoods.id),
    /** The niche (Ed. Básica, Idiomas, Clubes, Tecnologia, Outros). */
    categoryId: integer("category_id").references(() => categories.id),
    modalityId: integer("modality_id").references(() => modalities.id),
    phone: text("phone"),
    whatsapp: text("whatsapp"),
    address: text("address"),
    cep: text("cep"),
    /** An http(s) address used as is, or a key in the school_logos bucket. */
    logoUrl: text("logo_url"),
    origin: schoolOrigin("origin").notNull().default("admin"),
    /** 'Mostrar a escola nas páginas públicas': the school's own switch (decision 160). */
    publicPage: boolean("public_page").notNull().default(true),
    /** Set when an admin hid the school from the public pages, whatever its switch says (decision 160). */
    publicHiddenAt: ts("public_hidden_at"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // One school per name + UF + city + neighborhood; a school without neighborhood (or city) is still unique.
    unique("schools_identity_uq").on(t.nameKey, t.ufKey, t.cityKey, t.neighborhoodKey).nullsNotDistinct(),
    index("schools_name_key_idx").on(t.nameKey),
    index("schools_neighborhood_idx").on(t.neighborhoodId),
    index("schools_city_idx").on(t.cityId),
    // The marketplace's "same city" candidates when ids are missing (docs/performance.md).
    index("schools_uf_city_lower_idx").on(t.uf, sql`lower(${t.city})`),
    index("schools_category_idx").on(t.categoryId),
    // A public city page finds its schools by UF and the city's slug (decision 160).
    index("schools_public_city_idx").on(t.ufKey, slugSql(sql`${t.cityKey}`)),
  ],
);

/** An institution user's link to a school; admins approve or reject it. */
export const schoolMemberships = pgTable(
  "school_memberships",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    schoolId: uuid("school_id").notNull().references(() => schools.id, { onDelete: "cascade" }),
    position: text("position"),
    status: membershipStatus("status").notNull().default("pending"),
    requestedAt: ts("requested_at").notNull().defaultNow(),
    decidedAt: ts("decided_at"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    // One live (pending or approved) membership per user.
    uniqueIndex("school_memberships_live_user_uq").on(t.userId).where(sql`status <> 'rejected'`),
    index("school_memberships_school_idx").on(t.schoolId, t.status),
  ],
);

/** A school's plan. At most one active subscription per school. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    schoolId: uuid("school_id").notNull().references(() => schools.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    planType: planType("plan_type").notNull(),
    status: text("status").notNull().default("active"),
    startedAt: ts("started_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscriptions_active_school_uq").on(t.schoolId).where(sql`status = 'active'`),
    // The Gold schools, whose benefits the marketplace shows first.
    index("subscriptions_active_gold_idx").on(t.schoolId).where(sql`status = 'active' and plan_type = 'gold'`),
  ],
);
