import { foldSql, schema } from "@elo/db";
import { normalizeKey, profileMessages, type requestSchoolInput } from "@elo/shared";
import { and, eq, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { SessionUser } from "../../auth/session";
import type { Context } from "../../trpc/init";
import { AppError } from "../../trpc/errors";
import { logoAddress } from "../../storage/logo";
import { schoolSummaryColumns } from "./get.handler";
import { enqueueTemplate, schoolRegistrationEmail } from "../../mail/templates";
import { linkMainSchool } from "./update.handler";

type Ctx = Context & { user: SessionUser };
const { schools, states, cities, neighborhoods, profiles } = schema;

/**
 * The 'Cadastrar escola' dialog: an existing school with the same name, UF, city and neighborhood
 * (accent- and case-insensitive; reference ids compared when the school has them) is returned as found; otherwise it is created (origin parent_request),
 * linked when asked from the main tab, and the admin is e-mailed.
 */
export async function requestSchoolHandler({ ctx, input }: { ctx: Ctx; input: z.output<typeof requestSchoolInput> }) {
  const name = input.name.replace(/\s+/g, " ").trim();
  if (!name) throw new AppError("BAD_REQUEST", { title: profileMessages.invalidNameTitle, description: profileMessages.invalidNameDescription });
  const incomplete = { title: profileMessages.incompleteLocationTitle, description: profileMessages.incompleteLocationDescription };
  if (!input.stateId || !input.cityId || !input.neighborhoodId) throw new AppError("BAD_REQUEST", incomplete);

  const [place] = await ctx.db
    .select({ uf: states.code, city: cities.name, neighborhood: neighborhoods.name })
    .from(neighborhoods)
    .innerJoin(cities, eq(cities.id, neighborhoods.cityId))
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(and(eq(neighborhoods.id, input.neighborhoodId), eq(cities.id, input.cityId), eq(states.id, input.stateId)));
  if (!place) throw new AppError("BAD_REQUEST", incomplete);

  const nameKey = normalizeKey(name);
  // The identity keys of schools_identity_uq: what the unique constraint itself compares.
  const sameKeys = and(
    eq(schools.nameKey, nameKey),
    sql`${schools.ufKey} = upper(btrim(${place.uf}))`,
    sql`${schools.cityKey} = ${foldSql(sql`${place.city}`)}`,
    sql`${schools.neighborhoodKey} = ${foldSql(sql`${place.neighborhood}`)}`,
  );
  // Imported or admin-typed schools may spell the place differently; their reference ids, when set, decide.
  const samePlace = and(
    eq(schools.nameKey, nameKey),
    sql`${schools.ufKey} = upper(btrim(${place.uf}))`,
    sql`coalesce(${schools.cityId} = ${input.cityId}, ${schools.cityKey} = ${foldSql(sql`${place.city}`)})`,
    sql`coalesce(${schools.neighborhoodId} = ${input.neighborhoodId}, ${schools.neighborhoodKey} = ${foldSql(sql`${place.neighborhood}`)})`,
  );
  const [existing] = await ctx.db.select(schoolSummaryColumns).from(schools).where(or(samePlace, sameKeys)).limit(1);
  if (existing) return { found: true as const, school: { ...existing, logoUrl: logoAddress(ctx.storage, existing.logoUrl) } };

  const [me] = await ctx.db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.userId, ctx.user.id));
  // A concurrent request for the same school hits the unique identity index: the loser reads the
  // winner's row. The admin's e-mail is queued with the school, so neither exists without the other.
  const created = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schools)
      .values({
        name,
        nameKey,
        uf: place.uf,
        city: place.city,
        neighborhood: place.neighborhood,
        stateId: input.stateId,
        cityId: input.cityId,
        neighborhoodId: input.neighborhoodId,
        origin: "parent_request",
        createdBy: ctx.user.id,
      })
      .onConflictDoNothing()
      .returning(schoolSummaryColumns);
    if (row) {
      await enqueueTemplate(ctx, tx, schoolRegistrationEmail, ctx.config.ADMIN_EMAIL, { userId: null, aboutUserId: ctx.user.id }, {
        ...place,
        name,
        userName: me?.fullName ?? "",
        userEmail: ctx.user.email,
      });
    }
    return row;
  });
  if (!created) {
    const [winner] = await ctx.db.select(schoolSummaryColumns).from(schools).where(sameKeys);
    if (!winner) throw new AppError("INTERNAL_SERVER_ERROR", profileMessages.schoolRequestErrorTitle);
    return { found: true as const, school: { ...winner, logoUrl: logoAddress(ctx.storage, winner.logoUrl) } };
  }

  const linked = input.target === "main" ? await linkMainSchool(ctx, created.id) : null;
  return { found: false as const, school: { ...created, logoUrl: null }, profileCompleted: linked?.profileCompleted ?? null };
}
