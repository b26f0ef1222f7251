import { authMessages, LIMITS, type SignupInput } from "@elo/shared";
import { schema } from "@elo/db";
import { and, eq } from "drizzle-orm";
import { sessionCookieName } from "../../auth/cookie";
import { hashPassword } from "../../auth/password";
import { isWeakPassword } from "../../auth/password-strength";
import { issueConfirmationLink } from "../../auth/email-confirmation";
import { createSession } from "../../auth/session";
import { AppError, pgErrorCode } from "../../trpc/errors";
import type { Context } from "../../trpc/init";

const alreadyRegistered = () => new AppError("CONFLICT", { title: authMessages.alreadyRegisteredTitle, description: authMessages.alreadyRegisteredDescription });

/** The UF, city and neighborhood names for the chosen ids, only when they belong together. */
async function resolveLocation(ctx: Context, input: Pick<SignupInput, "stateId" | "cityId" | "neighborhoodId">) {
  const [row] = await ctx.db
    .select({ state: schema.states.code, city: schema.cities.name, neighborhood: schema.neighborhoods.name })
    .from(schema.neighborhoods)
    .innerJoin(schema.cities, eq(schema.cities.id, schema.neighborhoods.cityId))
    .innerJoin(schema.states, eq(schema.states.id, schema.cities.stateId))
    .where(and(eq(schema.neighborhoods.id, input.neighborhoodId), eq(schema.cities.id, input.cityId), eq(schema.states.id, input.stateId)));
  if (!row) throw new AppError("BAD_REQUEST", { title: authMessages.signupErrorTitle, description: authMessages.locationRequired });
  return row;
}

/**
 * Creates the account, its profile (type and location), the consent record and the e-mail
 * confirmation link (its message queued) in one transaction, then signs the new user in.
 */
export async function signupHandler({ ctx, input }: { ctx: Context; input: SignupInput }) {
  if (isWeakPassword(input.password, [input.email, input.fullName])) {
    throw new AppError("BAD_REQUEST", { title: authMessages.signupErrorTitle, description: authMessages.weakPasswordDescription }, { weakPassword: true });
  }
  const location = await resolveLocation(ctx, input);
  const [existing] = await ctx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, input.email));
  if (existing) throw alreadyRegistered();

  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  let userId: string;
  try {
    userId = await ctx.db.transaction(async (tx) => {
      const [user] = await tx.insert(schema.users).values({ email: input.email, passwordHash, createdAt: now, updatedAt: now }).returning({ id: schema.users.id });
      await tx.insert(schema.profiles).values({
        userId: user!.id,
        profileType: input.profileType,
        fullName: input.fullName,
        state: location.state,
        city: location.city,
        neighborhood: location.neighborhood,
        stateId: input.stateId,
        cityId: input.cityId,
        neighborhoodId: input.neighborhoodId,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(schema.userConsents).values({
        userId: user!.id,
        termsAccepted: input.termsAccepted,
        privacyAccepted: input.termsAccepted,
        dataProcessingConsent: input.dataProcessingConsent,
        marketingConsent: input.marketingConsent,
        consentVersion: LIMITS.consentVersion,
        userAgent: ctx.userAgent?.slice(0, 500) ?? null,
        acceptedAt: now,
      });
      await issueConfirmationLink(ctx, tx, { id: user!.id, email: input.email, name: input.fullName }, input.benefitId);
      return user!.id;
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw alreadyRegistered();
    throw error;
  }

  const { token, session } = await createSession(ctx.db, ctx.clock, userId, ctx.userAgent);
  ctx.cookies.set(sessionCookieName(ctx.config), token, session.expiresAt);
  return { profileType: input.profileType };
}
