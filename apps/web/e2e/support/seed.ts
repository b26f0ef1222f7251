import { schema, type Database } from "@elo/db";
import { normalizeKey } from "@elo/shared";
import { and, eq } from "drizzle-orm";

/** A user with a profile, straight into the e2e database (scenarios sign in with `loginAs`). */
export async function seedUser(db: Database, profile: Partial<typeof schema.profiles.$inferInsert>, email = `e2e.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@teste.com.br`) {
  const [user] = await db.insert(schema.users).values({ email, passwordHash: "not-used-by-loginAs", emailConfirmedAt: new Date() }).returning({ id: schema.users.id });
  await db.insert(schema.profiles).values({ userId: user!.id, ...profile });
  return user!.id;
}

/** A school in a São Paulo neighborhood with the first modality of a niche, and no plan. */
export async function seedSchool(db: Database, name: string, niche: string, neighborhood: string) {
  const [state] = await db.select().from(schema.states).where(eq(schema.states.code, "SP"));
  const [city] = await db.select().from(schema.cities).where(and(eq(schema.cities.stateId, state!.id), eq(schema.cities.name, "São Paulo")));
  await db.insert(schema.neighborhoods).values({ name: neighborhood, cityId: city!.id }).onConflictDoNothing();
  const [hood] = await db.select().from(schema.neighborhoods).where(and(eq(schema.neighborhoods.cityId, city!.id), eq(schema.neighborhoods.name, neighborhood)));
  const [category] = await db.select().from(schema.categories).where(eq(schema.categories.name, niche));
  const [modality] = await db.select().from(schema.modalities).where(eq(schema.modalities.categoryId, category!.id)).limit(1);
  const [school] = await db
    .insert(schema.schools)
    .values({ name, nameKey: normalizeKey(name), uf: "SP", city: "São Paulo", neighborhood, stateId: state!.id, cityId: city!.id, neighborhoodId: hood!.id, categoryId: category!.id, modalityId: modality!.id, origin: "admin" })
    .returning();
  return school!;
}
