import { schema, type Database } from "@elo/db";
import { eq } from "drizzle-orm";

/** Grants the admin role to the account with this e-mail; false when there is no such account. */
export async function grantAdmin(db: Database, email: string): Promise<boolean> {
  const [user] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email.trim().toLowerCase()));
  if (!user) return false;
  await db.insert(schema.userRoles).values({ userId: user.id, role: "admin" }).onConflictDoNothing();
  return true;
}
