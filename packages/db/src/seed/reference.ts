import { getCities, getStates } from "@brazilian-utils/brazilian-utils";
import { NICHES } from "@elo/shared";
import { eq, sql } from "drizzle-orm";
import { appMeta, categories, cities, modalities, neighborhoods, positions, relationshipTypes, states } from "../schema/index";
import type { Database } from "../types";
import { CAPITAL_NEIGHBORHOODS } from "./neighborhoods-data";
import { MODALITIES_BY_NICHE, POSITIONS, RELATIONSHIP_TYPES } from "./reference-data";

/** Bump when any reference list changes, so existing databases load the additions. */
export const REFERENCE_VERSION = "2026-11-22.1";

const CHUNK = 1000;
function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/**
 * Loads UFs, all municipalities (IBGE list shipped by @brazilian-utils/brazilian-utils), capital
 * neighborhoods, niches with modalities, positions and relationship types. Idempotent: only adds
 * what is missing, and skips everything when this version is already loaded.
 */
export async function seedReference(db: Database): Promise<void> {
  const [loaded] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, "reference_version"));
  if (loaded?.value === REFERENCE_VERSION) return;

  await db.transaction(async (tx) => {
    await tx
      .insert(states)
      .values(getStates().map((s) => ({ code: s.code, name: s.name })))
      .onConflictDoNothing();
    const stateRows = await tx.select({ id: states.id, code: states.code }).from(states);
    const stateId = new Map(stateRows.map((s) => [s.code, s.id]));

    const cityRows = stateRows.flatMap((s) => getCities(s.code as never).map((name) => ({ name, stateId: s.id })));
    for (const part of chunks(cityRows)) await tx.insert(cities).values(part).onConflictDoNothing();

    for (const capital of CAPITAL_NEIGHBORHOODS) {
      const sid = stateId.get(capital.uf);
      if (!sid) continue;
      const [city] = await tx
        .select({ id: cities.id })
        .from(cities)
        .where(sql`${cities.stateId} = ${sid} and ${cities.name} = ${capital.city}`);
      if (!city) throw new Error(`Capital not found in the municipality list: ${capital.city}/${capital.uf}`);
      await tx
        .insert(neighborhoods)
        .values(capital.neighborhoods.map((name) => ({ name, cityId: city.id })))
        .onConflictDoNothing();
    }

    await tx
      .insert(categories)
      .values(NICHES.map((name) => ({ name })))
      .onConflictDoNothing();
    const categoryRows = await tx.select().from(categories);
    for (const category of categoryRows) {
      const names = MODALITIES_BY_NICHE[category.name as (typeof NICHES)[number]] ?? [];
      if (names.length) await tx.insert(modalities).values(names.map((name) => ({ name, categoryId: category.id }))).onConflictDoNothing();
    }
    await tx.insert(positions).values(POSITIONS.map((name) => ({ name }))).onConflictDoNothing();
    await tx.insert(relationshipTypes).values(RELATIONSHIP_TYPES.map((name) => ({ name }))).onConflictDoNothing();
    await tx
      .insert(appMeta)
      .values({ key: "reference_version", value: REFERENCE_VERSION })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: REFERENCE_VERSION, updatedAt: new Date() } });
  });
}
