import { schema } from "@elo/db";
import { profileMessages, type InstitutionProfileInput } from "@elo/shared";
import { and, asc, desc, eq, ne } from "drizzle-orm";
import { AppError, pgErrorCode } from "../../trpc/errors";
import type { UserContext } from "./staff-context";

const { profiles, schoolMemberships: memberships, schools, positions } = schema;

/** The institution user's own data for /meus-dados and the state of their school link. */
export async function getInstitutionProfile({ ctx }: { ctx: UserContext }) {
  const [profile] = await ctx.db
    .select({ fullName: profiles.fullName, phone: profiles.phone, position: profiles.position })
    .from(profiles)
    .where(eq(profiles.userId, ctx.user.id));
  const [membership] = await ctx.db
    .select({
      status: memberships.status,
      requestedAt: memberships.requestedAt,
      schoolId: schools.id,
      schoolName: schools.name,
      stateId: schools.stateId,
      cityId: schools.cityId,
      neighborhoodId: schools.neighborhoodId,
    })
    .from(memberships)
    .innerJoin(schools, eq(schools.id, memberships.schoolId))
    .where(eq(memberships.userId, ctx.user.id))
    // The live one (pending/approved) first, then the latest decision.
    .orderBy(asc(eq(memberships.status, "rejected")), desc(memberships.requestedAt))
    .limit(1);
  const listed = await ctx.db.select({ name: positions.name }).from(positions);
  const position = profile?.position ?? null;
  return {
    fullName: profile?.fullName ?? "",
    phone: profile?.phone ?? null,
    position,
    positionListed: position === null || listed.some((p) => p.name === position),
    membership: membership ?? null,
  };
}

/**
 * Saves name, WhatsApp and position; when a school is chosen that is not the one already linked
 * (pending or approved), the live link is replaced by a new pending request for an admin to approve.
 */
export async function saveInstitutionProfile({ ctx, input }: { ctx: UserContext; input: InstitutionProfileInput & { phone: string | null; position: string | null; schoolId: string | null } }) {
  if (input.position !== null) {
    const [listed] = await ctx.db.select({ id: positions.id }).from(positions).where(eq(positions.name, input.position));
    if (!listed) throw new AppError("BAD_REQUEST", profileMessages.positionNotListed);
  }
  let requested = false;
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(profiles)
      .set({ fullName: input.fullName, phone: input.phone, position: input.position, updatedAt: ctx.clock.now() })
      .where(eq(profiles.userId, ctx.user.id));
    if (!input.schoolId) return;
    const [school] = await tx.select({ id: schools.id, name: schools.name }).from(schools).where(eq(schools.id, input.schoolId));
    if (!school) throw new AppError("NOT_FOUND", profileMessages.schoolNotSelected);
    const [live] = await tx
      .select({ id: memberships.id, schoolId: memberships.schoolId })
      .from(memberships)
      .where(and(eq(memberships.userId, ctx.user.id), ne(memberships.status, "rejected")))
      .for("update");
    if (live?.schoolId === school.id) {
      await tx.update(memberships).set({ position: input.position }).where(eq(memberships.id, live.id));
      return;
    }
    if (live) await tx.delete(memberships).where(eq(memberships.id, live.id));
    await tx.update(profiles).set({ schoolId: null, schoolName: school.name }).where(eq(profiles.userId, ctx.user.id));
    try {
      await tx.insert(memberships).values({ userId: ctx.user.id, schoolId: school.id, position: input.position, status: "pending", requestedAt: ctx.clock.now() });
    } catch (error) {
      // A concurrent request of the same user won the race.
      if (pgErrorCode(error) === "23505") throw new AppError("CONFLICT", { title: profileMessages.schoolRequestErrorTitle, description: profileMessages.schoolRequestErrorDescription });
      throw error;
    }
    requested = true;
  });
  return { requested };
}

/** Schools of a neighborhood for the school picker, ordered by name. */
export function schoolsInNeighborhood({ ctx, input }: { ctx: UserContext; input: { neighborhoodId: number } }) {
  return ctx.db
    .select({ id: schools.id, name: schools.name })
    .from(schools)
    .where(eq(schools.neighborhoodId, input.neighborhoodId))
    .orderBy(asc(schools.name));
}
