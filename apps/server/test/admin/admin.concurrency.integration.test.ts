import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin, createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";

/** Races on real PostgreSQL (PGlite has one connection: skipped there). */
const ROUNDS = 10;
let h: Harness;
let adminIds: string[];

beforeAll(async () => {
  h = await createHarness({ poolMax: 8 });
  if (!onRealPostgres()) return;
  adminIds = [(await createAdmin(h)).id, (await createAdmin(h)).id];
});
afterAll(() => h.close());

describe.skipIf(!onRealPostgres())("admin races", () => {
  it("a school is never deleted from under a profile linked at the same moment", async () => {
    const admin = await h.caller(adminIds[0]!);
    for (let i = 0; i < ROUNDS; i++) {
      const school = await createSchool(h);
      const parent = await createUser(h);
      const [deleted, linked] = await Promise.allSettled([
        admin.admin.schools.delete({ id: school.id }),
        h.db.update(schema.profiles).set({ schoolId: school.id }).where(eq(schema.profiles.userId, parent.id)),
      ]);
      const exists = (await h.db.select().from(schema.schools).where(eq(schema.schools.id, school.id))).length === 1;
      const [profile] = await h.db.select({ schoolId: schema.profiles.schoolId }).from(schema.profiles).where(eq(schema.profiles.userId, parent.id));
      if (linked.status === "fulfilled") {
        expect(deleted.status).toBe("rejected");
        expect(exists).toBe(true);
        expect(profile!.schoolId).toBe(school.id);
      } else {
        expect(deleted.status).toBe("fulfilled");
        expect(exists).toBe(false);
      }
    }
  });

  it("two admins deciding the same request: exactly one decision wins", async () => {
    const [a, b] = await Promise.all(adminIds.map((id) => h.caller(id)));
    for (let i = 0; i < ROUNDS; i++) {
      const school = await createSchool(h);
      const staff = await createStaff(h, school.id, "pending");
      const [m] = await h.db.select({ id: schema.schoolMemberships.id }).from(schema.schoolMemberships).where(eq(schema.schoolMemberships.userId, staff.id));
      const results = await Promise.allSettled([a!.admin.memberships.approve({ id: m!.id }), b!.admin.memberships.reject({ id: m!.id })]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const [after] = await h.db.select().from(schema.schoolMemberships).where(eq(schema.schoolMemberships.id, m!.id));
      const [profile] = await h.db.select({ schoolId: schema.profiles.schoolId }).from(schema.profiles).where(eq(schema.profiles.userId, staff.id));
      expect(profile!.schoolId).toBe(after!.status === "approved" ? school.id : null);
    }
  });
});
