import { schema } from "@elo/db";
import { schoolsByNeighborhoodInput } from "@elo/shared";
import { asc, eq } from "drizzle-orm";
import { logoAddress } from "../../storage/logo";
import { publicProcedure, router } from "../../trpc/init";

const { schools } = schema;

/** The public school directory for pickers: only id, name and logo. */
export const schoolsRouter = router({
  byNeighborhood: publicProcedure.input(schoolsByNeighborhoodInput).query(async ({ ctx, input }) => {
    const rows = await ctx.db
      .select({ id: schools.id, name: schools.name, logoUrl: schools.logoUrl })
      .from(schools)
      .where(eq(schools.neighborhoodId, input.neighborhoodId))
      .orderBy(asc(schools.name))
      .limit(1000);
    return rows.map((r) => ({ ...r, logoUrl: logoAddress(ctx.storage, r.logoUrl) }));
  }),
});
