import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addEnrollment, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

/** Issue 21, part 6: the school's verified and waiting families; the network's backlog and median time to a decision. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const HOUR = 3_600_000;

describe("verification figures", () => {
  it("the admin sees the network's backlog (and the part without staff) and the median time from proof to decision", async () => {
    const admin = await h.caller((await createAdmin(h)).id);
    const before = await admin.admin.verifications.summary();
    const staffed = await createSchool(h);
    await createStaff(h, staffed.id);
    const unstaffed = await createSchool(h);
    const now = h.clock.now().getTime();
    for (const [school, hours] of [[staffed, 1], [staffed, 3], [unstaffed, 2]] as const) {
      await insertProof(h, (await eligibleParent(h, { schoolId: school.id })).id, school.id, { submittedAt: new Date(now - hours * HOUR) });
    }
    // Decisions after 2 h, 4 h and 100 h (the first decisions of this database): the median is 4 h.
    for (const hours of [2, 4, 100]) {
      await insertProof(h, (await eligibleParent(h, { schoolId: staffed.id })).id, staffed.id, { status: "verificado", submittedAt: new Date(now - (hours + 5) * HOUR), decidedAt: new Date(now - 5 * HOUR) });
    }
    const after = await admin.admin.verifications.summary();
    expect(before.decidedInWindow).toBe(0);
    expect(after.waiting - before.waiting).toBe(3);
    expect(after.waitingUnstaffed - before.waitingUnstaffed).toBe(1);
    expect(after).toMatchObject({ decidedInWindow: 3, medianHoursToDecision: 4, windowDays: 90 });
    expect(after.oldestWaitingSince).toBeInstanceOf(Date);
  });

  it("the school home counts its families verified today (any enrollment, lapsed ones not) and the proofs waiting for it", async () => {
    const school = await createSchool(h);
    const other = await createSchool(h);
    const staff = await h.caller((await createStaff(h, school.id)).id);
    const year = new Date(h.clock.now()).getUTCFullYear();
    const verified = await eligibleParent(h, { schoolId: school.id });
    await insertProof(h, verified.id, school.id, { status: "verificado", verifiedUntil: `${year + 1}-02-28` });
    const viaOtherEnrollment = await eligibleParent(h, { schoolId: other.id });
    const enrollment = await addEnrollment(h, viaOtherEnrollment.id, school.id);
    await insertProof(h, viaOtherEnrollment.id, school.id, { enrollmentId: enrollment.id, status: "verificado", verifiedUntil: `${year + 1}-02-28` });
    const lapsed = await eligibleParent(h, { schoolId: school.id });
    await insertProof(h, lapsed.id, school.id, { status: "verificado", verifiedUntil: `${year - 1}-02-28` });
    for (let i = 0; i < 3; i++) await insertProof(h, (await eligibleParent(h, { schoolId: school.id })).id, school.id);
    await insertProof(h, (await eligibleParent(h, { schoolId: other.id })).id, other.id);
    expect((await staff.school.home()).verification).toEqual({ verifiedFamilies: 2, waitingProofs: 3 });
  });
});
