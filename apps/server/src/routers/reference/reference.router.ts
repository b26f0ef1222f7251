import { schema } from "@elo/db";
import { id, sortByNamePtBR } from "@elo/shared";
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { publicProcedure, router } from "../../trpc/init";

const { states, cities, neighborhoods, categories, modalities, positions, relationshipTypes } = schema;

/** Reference lists for the cascading selects, ordered as the spec says (names in pt-BR dictionary order, see sortByNamePtBR). */
export const referenceRouter = router({
  states: publicProcedure.query(({ ctx }) =>
    ctx.db.select({ id: states.id, code: states.code, name: states.name }).from(states).orderBy(asc(states.code)),
  ),
  cities: publicProcedure
    .input(z.object({ stateId: id }).strict())
    .query(({ ctx, input }) =>
      ctx.db.select({ id: cities.id, name: cities.name }).from(cities).where(eq(cities.stateId, input.stateId)).then(sortByNamePtBR),
    ),
  neighborhoods: publicProcedure
    .input(z.object({ cityId: id }).strict())
    .query(({ ctx, input }) =>
      ctx.db
        .select({ id: neighborhoods.id, name: neighborhoods.name })
        .from(neighborhoods)
        .where(eq(neighborhoods.cityId, input.cityId))
        .then(sortByNamePtBR),
    ),
  categories: publicProcedure.query(({ ctx }) => ctx.db.select().from(categories).then(sortByNamePtBR)),
  modalities: publicProcedure
    .input(z.object({ categoryId: id.optional() }).strict().optional())
    .query(({ ctx, input }) =>
      ctx.db
        .select({ id: modalities.id, name: modalities.name, categoryId: modalities.categoryId })
        .from(modalities)
        .where(input?.categoryId ? eq(modalities.categoryId, input.categoryId) : undefined)
        .then(sortByNamePtBR),
    ),
  positions: publicProcedure.query(({ ctx }) => ctx.db.select({ id: positions.id, name: positions.name }).from(positions).then(sortByNamePtBR)),
  relationshipTypes: publicProcedure.query(({ ctx }) =>
    ctx.db.select({ id: relationshipTypes.id, name: relationshipTypes.name }).from(relationshipTypes).then(sortByNamePtBR),
  ),
});
