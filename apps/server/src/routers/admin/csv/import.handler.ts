import { schema } from "@elo/db";
import { normalizeKey, type CsvRawRow } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { AdminCtx } from "../admin.types";
import { loadExistingSchools, matchExisting } from "./existing-schools";
import { loadReferenceIndex } from "./reference-index";
import { resolveRow, type ResolvedSchool } from "./resolve-row";

type RowOutcome = "created" | "updated" | "error";

/**
 * Imports one chunk of selected rows, each on its own: a row that fails is counted and the others
 * go on. A row whose name matches a stored school updates it, so importing a file twice creates
 * nothing new.
 */
export async function csvImportHandler({ ctx, input }: { ctx: AdminCtx; input: { rows: CsvRawRow[] } }) {
  const ref = await loadReferenceIndex(ctx.db, new Set(input.rows.map((r) => normalizeKey(r.city)).filter(Boolean)));
  const seen = new Set<string>();
  const results: { index: number; outcome: RowOutcome }[] = [];
  for (const row of input.rows) {
    const resolved = resolveRow(row, ref);
    if (!resolved.school || seen.has(resolved.school.nameKey)) {
      results.push({ index: row.index, outcome: "error" });
      continue;
    }
    seen.add(resolved.school.nameKey);
    try {
      results.push({ index: row.index, outcome: await upsertSchool(ctx, resolved.school) });
    } catch (error) {
      ctx.logger.warn({ err: error, row: row.index }, "csv row import failed");
      results.push({ index: row.index, outcome: "error" });
    }
  }
  const count = (o: RowOutcome) => results.filter((r) => r.outcome === o).length;
  return { created: count("created"), updated: count("updated"), errors: count("error"), results };
}

async function upsertSchool(ctx: AdminCtx, s: ResolvedSchool): Promise<RowOutcome> {
  const now = ctx.clock.now();
  const existing = matchExisting((await loadExistingSchools(ctx.db, [s.nameKey])).get(s.nameKey), s.cityId);
  if (!existing) {
    await ctx.db.insert(schema.schools).values({ ...s, origin: "csv", createdBy: ctx.user.id, createdAt: now, updatedAt: now });
    return "created";
  }
  // Empty cells keep what is stored; location and niche are replaced as groups so they stay consistent.
  const hasLocation = s.uf !== null || s.city !== null || s.neighborhood !== null;
  const hasNiche = s.categoryId !== null || s.modalityId !== null;
  await ctx.db
    .update(schema.schools)
    .set({
      name: s.name,
      nameKey: s.nameKey,
      ...(hasLocation ? { uf: s.uf, city: s.city, neighborhood: s.neighborhood, stateId: s.stateId, cityId: s.cityId, neighborhoodId: s.neighborhoodId } : {}),
      ...(hasNiche ? { categoryId: s.categoryId, modalityId: s.modalityId } : {}),
      ...(s.address !== null ? { address: s.address } : {}),
      ...(s.phone !== null ? { phone: s.phone } : {}),
      ...(s.whatsapp !== null ? { whatsapp: s.whatsapp } : {}),
      ...(s.cep !== null ? { cep: s.cep } : {}),
      updatedAt: now,
    })
    .where(eq(schema.schools.id, existing.id));
  return "updated";
}
