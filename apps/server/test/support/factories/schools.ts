import { schema } from "@elo/db";
import { normalizeKey, type Niche, type PlanType } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import type { Harness } from "../harness";
import { createUser } from "./users";

let counter = 0;

/** Ids of a real UF, city and neighborhood (São Paulo capital by default). */
export async function place(h: Pick<Harness, "db">, uf = "SP", city = "São Paulo", neighborhood = "Pinheiros") {
  const [state] = await h.db.select().from(schema.states).where(eq(schema.states.code, uf));
  const [c] = await h.db.select().from(schema.cities).where(and(eq(schema.cities.stateId, state!.id), eq(schema.cities.name, city)));
  await h.db.insert(schema.neighborhoods).values({ name: neighborhood, cityId: c!.id }).onConflictDoNothing();
  const [n] = await h.db.select().from(schema.neighborhoods).where(and(eq(schema.neighborhoods.cityId, c!.id), eq(schema.neighborhoods.name, neighborhood)));
  return { uf, city, neighborhood, stateId: state!.id, cityId: c!.id, neighborhoodId: n!.id };
}

export async function nicheIds(h: Pick<Harness, "db">, niche: Niche) {
  const [category] = await h.db.select().from(schema.categories).where(eq(schema.categories.name, niche));
  const [modality] = await h.db.select().from(schema.modalities).where(eq(schema.modalities.categoryId, category!.id)).limit(1);
  return { categoryId: category!.id, modalityId: modality!.id };
}

export interface SchoolOptions {
  name?: string;
  niche?: Niche;
  uf?: string;
  city?: string;
  neighborhood?: string;
  plan?: PlanType | null;
}

/** Inserts a school (with an active plan when `plan` is given). */
export async function createSchool(h: Pick<Harness, "db">, opts: SchoolOptions = {}) {
  const name = opts.name ?? `Escola Teste ${process.pid}-${++counter}`;
  const loc = await place(h, opts.uf, opts.city, opts.neighborhood);
  const ids = await nicheIds(h, opts.niche ?? "Ed. Básica");
  const [school] = await h.db
    .insert(schema.schools)
    .values({ name, nameKey: normalizeKey(name), ...loc, ...ids, origin: "admin" })
    .returning();
  if (opts.plan) await h.db.insert(schema.subscriptions).values({ schoolId: school!.id, planType: opts.plan });
  return school!;
}

/** An institution user with an approved (or other status) membership of `schoolId`. */
export async function createStaff(h: Pick<Harness, "db">, schoolId: string, status: "approved" | "pending" | "rejected" = "approved") {
  const user = await createUser(h, { profileType: "institution", profile: status === "approved" ? { schoolId } : {} });
  await h.db.insert(schema.schoolMemberships).values({ userId: user.id, schoolId, status, position: "Secretário(a)" });
  return user;
}
