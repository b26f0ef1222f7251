import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { createSchool, place } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { onRealPostgres } from "../support/test-db";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ poolMax: 12 });
});
afterAll(async () => {
  await h.close();
});

describe("profile writes under concurrency (real PostgreSQL)", () => {
  it.skipIf(!onRealPostgres())("never lets concurrent adds pass the limit of 3 other enrollments", async () => {
    const user = await createUser(h);
    const school = await createSchool(h, { niche: "Idiomas" });
    const api = await h.caller(user.id);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => api.profile.enrollments.save({ schoolId: school.id })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const rows = await h.db.select().from(schema.enrollments).where(eq(schema.enrollments.userId, user.id));
    expect(rows).toHaveLength(3);
  });

  it.skipIf(!onRealPostgres())("creates one school when several parents request the same one at once", async () => {
    const loc = await place(h);
    const parents = await Promise.all(Array.from({ length: 6 }, () => createUser(h)));
    const name = `Escola Concorrida ${Date.now()}`;
    const results = await Promise.all(
      parents.map(async (p, i) =>
        (await h.caller(p.id)).profile.requestSchool({ name: i % 2 ? name.toUpperCase() : name, stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId }),
      ),
    );
    expect(new Set(results.map((r) => r.school.id)).size).toBe(1);
    expect(results.filter((r) => !r.found).length).toBe(1);
    const mails = (await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "school-registration"))).filter((m) => m.text!.toLowerCase().includes(name.toLowerCase()));
    expect(mails).toHaveLength(1);
  });
});
