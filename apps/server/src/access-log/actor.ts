import { schema, type Database } from "@elo/db";
import { accessLogMessages as m } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import type { Context } from "../trpc/init";

const { profiles, schools, schoolMemberships } = schema;

/** Who opened or decided, as they were at that moment: kept on the row, so a later rename or departure does not rewrite it. */
export interface Actor {
  userId: string;
  schoolId: string | null;
  organizationName: string | null;
  role: string;
  firstName: string | null;
  requestId: string | null;
  viaApiToken: boolean;
}

const firstWord = (name: string | null | undefined) => name?.trim().split(/\s+/)[0] || null;

/** The actor of a request: a school's approved staff member (schoolId) or an administrator (null). */
export async function actorOf(db: Database, ctx: Pick<Context, "requestId" | "apiTokenId">, userId: string, schoolId: string | null): Promise<Actor> {
  const [me] = await db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.userId, userId));
  let organizationName: string | null = null;
  let role: string = m.roleAdmin;
  if (schoolId) {
    const [row] = await db
      .select({ name: schools.name, position: schoolMemberships.position })
      .from(schools)
      .leftJoin(schoolMemberships, and(eq(schoolMemberships.schoolId, schools.id), eq(schoolMemberships.userId, userId)))
      .where(eq(schools.id, schoolId));
    organizationName = row?.name ?? null;
    role = row?.position?.trim() || m.roleStaff;
  }
  return { userId, schoolId, organizationName, role, firstName: firstWord(me?.fullName), requestId: ctx.requestId, viaApiToken: !!ctx.apiTokenId };
}
