import { schema, type Database } from "@elo/db";
import { profileMessages, type Toast } from "@elo/shared";
import { and, eq } from "drizzle-orm";

const { schoolMemberships } = schema;

export type StaffSchool = { schoolId: string } | { refusal: Toast; membership: "pending" | "none" };

/**
 * The school a user is APPROVED staff of, or why not: a pending request has its own message,
 * anything else (rejected, no request) asks for a membership. Used by `schoolStaffProcedure` and
 * by the school's upload route, which does not pass through tRPC.
 */
export async function staffSchool(db: Database, userId: string): Promise<StaffSchool> {
  const [approved] = await db
    .select({ schoolId: schoolMemberships.schoolId })
    .from(schoolMemberships)
    .where(and(eq(schoolMemberships.userId, userId), eq(schoolMemberships.status, "approved")));
  if (approved) return { schoolId: approved.schoolId };
  const [pending] = await db
    .select({ id: schoolMemberships.id })
    .from(schoolMemberships)
    .where(and(eq(schoolMemberships.userId, userId), eq(schoolMemberships.status, "pending")));
  return pending
    ? { refusal: { title: profileMessages.membershipPending, description: profileMessages.membershipPendingDescription }, membership: "pending" }
    : { refusal: { title: profileMessages.membershipRequired }, membership: "none" };
}
