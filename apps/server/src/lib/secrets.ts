import { randomBytes } from "node:crypto";
import { schema, type Database } from "@elo/db";
import { eq } from "drizzle-orm";

/** A secret shared by every server process on the same database, made on first use. */
export async function sharedSecret(db: Database, key: string): Promise<string> {
  await db.insert(schema.appMeta).values({ key, value: randomBytes(32).toString("base64url") }).onConflictDoNothing();
  const [row] = await db.select({ value: schema.appMeta.value }).from(schema.appMeta).where(eq(schema.appMeta.key, key));
  return row!.value;
}
