import { schema, type Database } from "@elo/db";
import { inArray } from "drizzle-orm";

export interface ExistingSchool {
  id: string;
  cityId: number | null;
}

/** Schools already stored under these name keys. */
export async function loadExistingSchools(db: Pick<Database, "select">, nameKeys: readonly string[]) {
  const map = new Map<string, ExistingSchool[]>();
  if (!nameKeys.length) return map;
  const rows = await db
    .select({ id: schema.schools.id, nameKey: schema.schools.nameKey, cityId: schema.schools.cityId })
    .from(schema.schools)
    .where(inArray(schema.schools.nameKey, [...new Set(nameKeys)]));
  for (const r of rows) map.set(r.nameKey, [...(map.get(r.nameKey) ?? []), { id: r.id, cityId: r.cityId }]);
  return map;
}

/**
 * The school a CSV row updates: same name (accent- and case-free); when several schools share the
 * name, the one in the row's city, or none.
 */
export function matchExisting(candidates: readonly ExistingSchool[] | undefined, cityId: number | null): ExistingSchool | null {
  if (!candidates?.length) return null;
  if (candidates.length === 1) return candidates[0]!;
  return candidates.find((c) => cityId !== null && c.cityId === cityId) ?? null;
}
