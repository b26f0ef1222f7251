import { schema, type Database } from "@elo/db";
import { normalizeKey } from "@elo/shared";
import { inArray } from "drizzle-orm";

export interface Named {
  id: number;
  name: string;
}
export interface RefCity extends Named {
  stateId: number;
}
export interface RefNeighborhood extends Named {
  cityId: number;
}
export interface RefModality extends Named {
  categoryId: number;
}

const groupBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
};

/** Reference lists keyed by accent- and case-free names, for resolving CSV cells. */
export interface ReferenceIndex {
  stateByCode: Map<string, Named & { code: string }>;
  stateById: Map<number, Named & { code: string }>;
  citiesByKey: Map<string, RefCity[]>;
  cityById: Map<number, RefCity>;
  neighborhoodsByKey: Map<string, RefNeighborhood[]>;
  categoryByKey: Map<string, Named>;
  categoryById: Map<number, Named>;
  modalitiesByKey: Map<string, RefModality[]>;
}

/** Loads the reference lists needed for these rows (neighborhoods only of the cities they name). */
export async function loadReferenceIndex(db: Database, cityKeys: ReadonlySet<string>): Promise<ReferenceIndex> {
  const [states, cities, categories, modalities] = await Promise.all([
    db.select({ id: schema.states.id, code: schema.states.code, name: schema.states.name }).from(schema.states),
    db.select({ id: schema.cities.id, name: schema.cities.name, stateId: schema.cities.stateId }).from(schema.cities),
    db.select({ id: schema.categories.id, name: schema.categories.name }).from(schema.categories),
    db.select({ id: schema.modalities.id, name: schema.modalities.name, categoryId: schema.modalities.categoryId }).from(schema.modalities),
  ]);
  const citiesByKey = groupBy(cities, (c) => normalizeKey(c.name));
  const wantedCityIds = [...cityKeys].flatMap((k) => citiesByKey.get(k) ?? []).map((c) => c.id);
  const neighborhoods = wantedCityIds.length
    ? await db
        .select({ id: schema.neighborhoods.id, name: schema.neighborhoods.name, cityId: schema.neighborhoods.cityId })
        .from(schema.neighborhoods)
        .where(inArray(schema.neighborhoods.cityId, wantedCityIds))
    : [];
  return {
    stateByCode: new Map(states.map((s) => [s.code.toUpperCase(), s])),
    stateById: new Map(states.map((s) => [s.id, s])),
    citiesByKey,
    cityById: new Map(cities.map((c) => [c.id, c])),
    neighborhoodsByKey: groupBy(neighborhoods, (n) => normalizeKey(n.name)),
    categoryByKey: new Map(categories.map((c) => [normalizeKey(c.name), c])),
    categoryById: new Map(categories.map((c) => [c.id, c])),
    modalitiesByKey: groupBy(modalities, (m) => normalizeKey(m.name)),
  };
}
