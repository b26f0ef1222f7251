import { schema } from "@elo/db";
import { normalizeKey, profileMessages, schoolMessages, type SchoolDataInput } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { publicPaths, slugify } from "../../public-pages/slug";
import { logoAddress } from "../../storage/logo";
import { AppError, pgErrorCode } from "../../trpc/errors";
import type { StaffContext } from "./staff-context";

const { schools, states, cities, neighborhoods, modalities, categories } = schema;

const saveError = { title: schoolMessages.saveErrorTitle, description: schoolMessages.dataSaveErrorDescription };

/** The school's data for /dados-da-escola. */
export async function getSchoolData({ ctx }: { ctx: StaffContext }) {
  const [row] = await ctx.db
    .select({
      id: schools.id,
      name: schools.name,
      stateId: schools.stateId,
      cityId: schools.cityId,
      neighborhoodId: schools.neighborhoodId,
      categoryId: schools.categoryId,
      modalityId: schools.modalityId,
      phone: schools.phone,
      whatsapp: schools.whatsapp,
      address: schools.address,
      cep: schools.cep,
      logoUrl: schools.logoUrl,
      publicPage: schools.publicPage,
      publicHiddenAt: schools.publicHiddenAt,
      uf: schools.ufKey,
      cityKey: schools.cityKey,
    })
    .from(schools)
    .where(eq(schools.id, ctx.schoolId));
  if (!row) throw new AppError("NOT_FOUND", { title: profileMessages.loadErrorTitle, description: schoolMessages.dataLoadErrorDescription });
  const { publicHiddenAt, uf, cityKey, ...data } = row;
  // Staff is approved (schoolStaffProcedure): the page exists whenever the switch is on and no admin hid it.
  const publicPath = data.publicPage && !publicHiddenAt && uf && cityKey ? publicPaths.school(uf, slugify(cityKey), data.id, data.name) : null;
  return { ...data, logoUrl: logoAddress(ctx.storage, row.logoUrl), publicHidden: publicHiddenAt !== null, publicPath };
}

/** 'Mostrar a escola nas páginas públicas': the school's own switch (decision 160). */
export async function setSchoolPublicPage({ ctx, input }: { ctx: StaffContext; input: { publicPage: boolean } }) {
  await ctx.db.update(schools).set({ publicPage: input.publicPage, updatedAt: ctx.clock.now() }).where(eq(schools.id, ctx.schoolId));
  return getSchoolData({ ctx });
}

/** Saves /dados-da-escola: the place ids must chain (neighborhood in city in state), the modality must be of the category. */
export async function saveSchoolData({ ctx, input }: { ctx: StaffContext; input: SchoolDataInput & { phone: string | null; whatsapp: string | null; address: string | null; cep: string | null } }) {
  const [place] = await ctx.db
    .select({ uf: states.code, city: cities.name, neighborhood: neighborhoods.name })
    .from(neighborhoods)
    .innerJoin(cities, eq(cities.id, neighborhoods.cityId))
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(and(eq(neighborhoods.id, input.neighborhoodId), eq(cities.id, input.cityId), eq(states.id, input.stateId)));
  const [niche] = await ctx.db
    .select({ id: modalities.id })
    .from(modalities)
    .innerJoin(categories, eq(categories.id, modalities.categoryId))
    .where(and(eq(modalities.id, input.modalityId), eq(categories.id, input.categoryId)));
  if (!place || !niche) throw new AppError("BAD_REQUEST", saveError);
  try {
    await ctx.db
      .update(schools)
      .set({
        name: input.name,
        nameKey: normalizeKey(input.name),
        stateId: input.stateId,
        cityId: input.cityId,
        neighborhoodId: input.neighborhoodId,
        uf: place.uf,
        city: place.city,
        neighborhood: place.neighborhood,
        categoryId: input.categoryId,
        modalityId: input.modalityId,
        phone: input.phone,
        whatsapp: input.whatsapp,
        address: input.address,
        cep: input.cep,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(schools.id, ctx.schoolId));
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw new AppError("CONFLICT", { title: saveError.title, description: schoolMessages.schoolNameTaken });
    throw error;
  }
  await ctx.db.update(schema.profiles).set({ schoolName: input.name }).where(eq(schema.profiles.schoolId, ctx.schoolId));
  return getSchoolData({ ctx });
}

/** Removes the school's logo (the stored file too, when it is ours). */
export async function deleteSchoolLogo({ ctx }: { ctx: StaffContext }) {
  const [row] = await ctx.db.select({ logoUrl: schools.logoUrl }).from(schools).where(eq(schools.id, ctx.schoolId));
  await ctx.db.update(schools).set({ logoUrl: null, updatedAt: ctx.clock.now() }).where(eq(schools.id, ctx.schoolId));
  if (row?.logoUrl && !/^https?:\/\//i.test(row.logoUrl)) {
    await ctx.storage.remove("school_logos", row.logoUrl).catch((error) => ctx.logger.warn({ error }, "logo file not removed"));
  }
  return { ok: true as const };
}
