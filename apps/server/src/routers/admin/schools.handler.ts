import { schema } from "@elo/db";
import { adminMessages, adminQueueMessages, normalizeKey, type adminSchoolListInput, type adminSchoolUpdateInput } from "@elo/shared";
import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { AppError, pgErrorCode } from "../../trpc/errors";
import type { AdminCtx } from "./admin.types";
import { isStoredLogo, logoAddress } from "./logo-url";

const { schools, categories, modalities, states, cities, neighborhoods } = schema;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The grid: name search (accent- and case-free), filters by UF, city and niche, one page at a time. */
export async function listSchoolsHandler({ ctx, input }: { ctx: AdminCtx; input: z.output<typeof adminSchoolListInput> }) {
  const where: SQL[] = [];
  const key = normalizeKey(input.search);
  if (key) where.push(sql`${schools.nameKey} like ${likeContains(key)}`);
  if (input.uf) where.push(eq(schools.uf, input.uf));
  if (input.cityId) where.push(eq(schools.cityId, input.cityId));
  if (input.categoryId) where.push(eq(schools.categoryId, input.categoryId));
  if (input.origin) where.push(eq(schools.origin, input.origin));
  const condition = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        id: schools.id,
        name: schools.name,
        uf: schools.uf,
        city: schools.city,
        neighborhood: schools.neighborhood,
        stateId: schools.stateId,
        cityId: schools.cityId,
        neighborhoodId: schools.neighborhoodId,
        categoryId: schools.categoryId,
        modalityId: schools.modalityId,
        categoryName: categories.name,
        modalityName: modalities.name,
        address: schools.address,
        phone: schools.phone,
        whatsapp: schools.whatsapp,
        cep: schools.cep,
        logoUrl: schools.logoUrl,
        origin: schools.origin,
        createdAt: schools.createdAt,
        publicHidden: sql<boolean>`${schools.publicHiddenAt} is not null`,
      })
      .from(schools)
      .leftJoin(categories, eq(categories.id, schools.categoryId))
      .leftJoin(modalities, eq(modalities.id, schools.modalityId))
      .where(condition)
      .orderBy(asc(schools.nameKey), asc(schools.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ total: count() }).from(schools).where(condition),
  ]);
  return {
    items: rows.map((r) => ({ ...r, logoUrl: logoAddress(ctx.storage, r.logoUrl) })),
    total: total?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** Checks that the chosen ids form a real UF → city → neighborhood chain and a real niche → modality pair. */
async function resolveSchoolPlace(ctx: AdminCtx, input: z.output<typeof adminSchoolUpdateInput>) {
  let uf: string | null = null;
  let city: string | null = null;
  let neighborhood: string | null = null;
  if (input.stateId) {
    const [s] = await ctx.db.select({ code: states.code }).from(states).where(eq(states.id, input.stateId));
    if (!s) throw new AppError("BAD_REQUEST", { title: adminMessages.updateError, description: adminQueueMessages.invalidLocation });
    uf = s.code;
  }
  if (input.cityId) {
    const [c] = await ctx.db.select({ name: cities.name, stateId: cities.stateId }).from(cities).where(eq(cities.id, input.cityId));
    if (!c || c.stateId !== input.stateId) throw new AppError("BAD_REQUEST", { title: adminMessages.updateError, description: adminQueueMessages.invalidLocation });
    city = c.name;
  }
  if (input.neighborhoodId) {
    const [n] = await ctx.db.select({ name: neighborhoods.name, cityId: neighborhoods.cityId }).from(neighborhoods).where(eq(neighborhoods.id, input.neighborhoodId));
    if (!n || n.cityId !== input.cityId) throw new AppError("BAD_REQUEST", { title: adminMessages.updateError, description: adminQueueMessages.invalidLocation });
    neighborhood = n.name;
  }
  if (input.modalityId) {
    const [m] = await ctx.db.select({ categoryId: modalities.categoryId }).from(modalities).where(eq(modalities.id, input.modalityId));
    if (!m || m.categoryId !== input.categoryId) throw new AppError("BAD_REQUEST", { title: adminMessages.updateError, description: adminQueueMessages.invalidNiche });
  } else if (input.categoryId) {
    const [c] = await ctx.db.select({ id: categories.id }).from(categories).where(eq(categories.id, input.categoryId));
    if (!c) throw new AppError("BAD_REQUEST", { title: adminMessages.updateError, description: adminQueueMessages.invalidNiche });
  }
  return { uf, city, neighborhood };
}

/** Saves the edit dialog. Linked profiles keep showing the new name. */
export async function updateSchoolHandler({ ctx, input }: { ctx: AdminCtx; input: z.output<typeof adminSchoolUpdateInput> }) {
  const place = await resolveSchoolPlace(ctx, input);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(schools)
        .set({
          name: input.name,
          nameKey: normalizeKey(input.name),
          uf: place.uf,
          city: place.city,
          neighborhood: place.neighborhood,
          stateId: input.stateId ?? null,
          cityId: input.cityId ?? null,
          neighborhoodId: input.neighborhoodId ?? null,
          categoryId: input.categoryId ?? null,
          modalityId: input.modalityId ?? null,
          address: input.address,
          phone: input.phone,
          whatsapp: input.whatsapp,
          cep: input.cep,
          updatedAt: ctx.clock.now(),
        })
        .where(eq(schools.id, input.id))
        .returning({ id: schools.id, name: schools.name });
      if (!row) throw new AppError("NOT_FOUND", { title: adminMessages.updateError, description: adminQueueMessages.schoolNotFound });
      await tx.update(schema.profiles).set({ schoolName: row.name }).where(eq(schema.profiles.schoolId, row.id));
      return row;
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw new AppError("CONFLICT", { title: adminMessages.updateError, description: adminQueueMessages.duplicateSchool });
    throw error;
  }
}

/**
 * Deletes a school nobody points at. The row is locked first, so a profile, benefit or enrollment
 * linked at the same moment either commits before the check (and blocks) or waits and then fails.
 */
export async function deleteSchoolHandler({ ctx, input }: { ctx: AdminCtx; input: { id: string } }) {
  const logo = await ctx.db.transaction(async (tx) => {
    const [school] = await tx.select({ id: schools.id, logoUrl: schools.logoUrl }).from(schools).where(eq(schools.id, input.id)).for("update");
    if (!school) throw new AppError("NOT_FOUND", { title: adminMessages.deleteError, description: adminQueueMessages.schoolNotFound });
    const links = await Promise.all(
      [schema.profiles, schema.discounts, schema.enrollments, schema.discountTransactions, schema.enrollmentProofs].map((table) =>
        tx.select({ one: sql`1` }).from(table).where(eq(table.schoolId, input.id)).limit(1),
      ),
    );
    if (links.some((rows) => rows.length > 0)) throw new AppError("CONFLICT", { title: adminMessages.deleteError, description: adminMessages.deleteBlocked });
    await tx.delete(schools).where(eq(schools.id, input.id));
    return school.logoUrl;
  });
  if (isStoredLogo(logo)) await ctx.storage.remove("school_logos", logo).catch((err) => ctx.logger.warn({ err }, "logo file left behind"));
  return { ok: true as const };
}

/** Clears the logo and removes its file. */
export async function removeLogoHandler({ ctx, input }: { ctx: AdminCtx; input: { id: string } }) {
  const [before] = await ctx.db.select({ logoUrl: schools.logoUrl }).from(schools).where(eq(schools.id, input.id));
  if (!before) throw new AppError("NOT_FOUND", { title: adminMessages.logoRemoveError, description: adminQueueMessages.schoolNotFound });
  await ctx.db.update(schools).set({ logoUrl: null, updatedAt: ctx.clock.now() }).where(eq(schools.id, input.id));
  if (isStoredLogo(before.logoUrl)) await ctx.storage.remove("school_logos", before.logoUrl).catch((err) => ctx.logger.warn({ err }, "logo file left behind"));
  return { ok: true as const };
}

/** Hides a school from the public pages (its URLs answer 410), or lets its own switch decide again (decision 160). */
export async function setSchoolPublicHiddenHandler({ ctx, input }: { ctx: AdminCtx; input: { id: string; hidden: boolean } }) {
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .update(schools)
    .set({ publicHiddenAt: input.hidden ? sql`coalesce(${schools.publicHiddenAt}, ${now.toISOString()}::timestamptz)` : null, updatedAt: now })
    .where(eq(schools.id, input.id))
    .returning({ id: schools.id, publicHiddenAt: schools.publicHiddenAt });
  if (!row) throw new AppError("NOT_FOUND", { title: adminMessages.updateError, description: adminQueueMessages.schoolNotFound });
  return { id: row.id, publicHidden: row.publicHiddenAt !== null };
}
