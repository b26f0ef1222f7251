import { index, integer, pgTable, serial, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";

/** Federative units (UF). */
export const states = pgTable("states", {
  id: serial("id").primaryKey(),
  code: varchar("code", { length: 2 }).notNull().unique(),
  name: text("name").notNull(),
});

export const cities = pgTable(
  "cities",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    stateId: integer("state_id").notNull().references(() => states.id),
  },
  (t) => [uniqueIndex("cities_state_name_uq").on(t.stateId, t.name)],
);

export const neighborhoods = pgTable(
  "neighborhoods",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    cityId: integer("city_id").notNull().references(() => cities.id),
  },
  (t) => [uniqueIndex("neighborhoods_city_name_uq").on(t.cityId, t.name)],
);

/** School niches (Ed. Básica, Idiomas, Clubes, Tecnologia, Outros). */
export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});

export const modalities = pgTable(
  "modalities",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    categoryId: integer("category_id").notNull().references(() => categories.id),
  },
  (t) => [uniqueIndex("modalities_category_name_uq").on(t.categoryId, t.name), index("modalities_category_idx").on(t.categoryId)],
);

export const positions = pgTable("positions", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});

export const relationshipTypes = pgTable("relationship_types", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});
