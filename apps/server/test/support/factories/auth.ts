import { schema } from "@elo/db";
import type { SignupInput } from "@elo/shared";
import { and, desc, eq } from "drizzle-orm";
import type { Harness } from "../harness";
import { uniqueEmail } from "./users";

/** A real UF / city / neighborhood triple from the reference data. */
export async function someLocation(h: Pick<Harness, "db">) {
  const [row] = await h.db
    .select({ stateId: schema.states.id, cityId: schema.cities.id, neighborhoodId: schema.neighborhoods.id })
    .from(schema.neighborhoods)
    .innerJoin(schema.cities, eq(schema.cities.id, schema.neighborhoods.cityId))
    .innerJoin(schema.states, eq(schema.states.id, schema.cities.stateId))
    .orderBy(schema.neighborhoods.id)
    .limit(1);
  return row!;
}

/** A valid signup input (strong password, mandatory consents accepted). */
export async function signupInputFor(h: Pick<Harness, "db">, overrides: Partial<SignupInput> = {}): Promise<SignupInput> {
  return {
    profileType: "parent",
    fullName: "Maria Oliveira",
    email: uniqueEmail("signup"),
    password: "Girassol-Azul-42",
    ...(await someLocation(h)),
    termsAccepted: true,
    dataProcessingConsent: true,
    marketingConsent: false,
    ...overrides,
  };
}

/** The token of the latest e-mail of `kind` sent to `email` whose link goes to `page`, read from the outbox (once the e-mails being made are in). */
async function latestLinkToken(h: Pick<Harness, "db" | "deps">, email: string, kind: string, page: string): Promise<string | null> {
  await h.deps.background.settled();
  const [row] = await h.db
    .select({ text: schema.emailOutbox.text })
    .from(schema.emailOutbox)
    .where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, kind)))
    .orderBy(desc(schema.emailOutbox.createdAt))
    .limit(1);
  return row?.text?.match(new RegExp(`${page}\\?token=([a-z0-9]+)`))?.[1] ?? null;
}

/** The token of the latest recovery e-mail sent to `email`, read from the outbox. */
export const latestResetToken = (h: Pick<Harness, "db" | "deps">, email: string) => latestLinkToken(h, email, "password-reset", "reset-password");

/** The token of the latest e-mail confirmation link sent to `email`, read from the outbox. */
export const latestConfirmationToken = (h: Pick<Harness, "db" | "deps">, email: string) => latestLinkToken(h, email, "email-confirmation", "confirmar-email");
