import { schema } from "@elo/db";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessLogJobs, purgeAccessLog } from "../../src/access-log/retention";
import { createDiscount, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { insertVoucher } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";

/** Issue 27, part 5: the access log is kept for the life of what it is about plus 2 years, never less than 6 months (decision 190). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(h.clock.now().getTime() - days * DAY);

async function proofViewed(opts: { replacedDaysAgo: number | null; viewedDaysAgo: number }) {
  const school = await createSchool(h);
  const staff = await createStaff(h, school.id);
  const parent = await eligibleParent(h, { schoolId: school.id });
  const proof = await insertProof(h, parent.id, school.id, { submittedAt: ago(opts.viewedDaysAgo + 1) });
  if (opts.replacedDaysAgo !== null) await h.db.update(schema.enrollmentProofs).set({ replacedAt: ago(opts.replacedDaysAgo) }).where(eq(schema.enrollmentProofs.id, proof.id));
  const [view] = await h.db
    .insert(schema.enrollmentProofViews)
    .values({ proofId: proof.id, viewerId: staff.id, viewerSchoolId: school.id, viewedAt: ago(opts.viewedDaysAgo), purpose: "verificacao_matricula" })
    .returning();
  return view!.id;
}

async function voucherViewed(opts: { status: "reservado" | "utilizado"; endedDaysAgo: number | null; viewedDaysAgo: number }) {
  const school = await createSchool(h);
  const staff = await createStaff(h, school.id);
  const parent = await eligibleParent(h);
  const benefit = await createDiscount(h, school.id);
  const voucher = await insertVoucher(h, { id: benefit.id, schoolId: school.id }, parent.id, {
    status: opts.status,
    claimedAt: ago(opts.viewedDaysAgo + 1),
    ...(opts.endedDaysAgo !== null ? { redeemedAt: ago(opts.endedDaysAgo) } : {}),
  });
  const [view] = await h.db
    .insert(schema.voucherDeskViews)
    .values({ holderId: parent.id, voucherId: voucher.id, schoolId: school.id, viewerId: staff.id, action: "lookup", viewedAt: ago(opts.viewedDaysAgo) })
    .returning();
  return view!.id;
}

describe("the retention purge", () => {
  it("deletes only the rows past retention, and is one of the server's scheduled jobs", async () => {
    const past = await proofViewed({ replacedDaysAgo: 800, viewedDaysAgo: 900 });
    const replacedRecently = await proofViewed({ replacedDaysAgo: 600, viewedDaysAgo: 900 });
    const liveProof = await proofViewed({ replacedDaysAgo: null, viewedDaysAgo: 2000 });
    const recentView = await proofViewed({ replacedDaysAgo: 800, viewedDaysAgo: 150 });
    const usedLongAgo = await voucherViewed({ status: "utilizado", endedDaysAgo: 800, viewedDaysAgo: 900 });
    const usedRecently = await voucherViewed({ status: "utilizado", endedDaysAgo: 300, viewedDaysAgo: 900 });
    const stillReserved = await voucherViewed({ status: "reservado", endedDaysAgo: null, viewedDaysAgo: 900 });

    expect(await purgeAccessLog(h.deps)).toBeGreaterThanOrEqual(2);
    const proofs = (await h.db.select({ id: schema.enrollmentProofViews.id }).from(schema.enrollmentProofViews).where(inArray(schema.enrollmentProofViews.id, [past, replacedRecently, liveProof, recentView]))).map((r) => r.id);
    expect(proofs.sort()).toEqual([replacedRecently, liveProof, recentView].sort());
    const desks = (await h.db.select({ id: schema.voucherDeskViews.id }).from(schema.voucherDeskViews).where(inArray(schema.voucherDeskViews.id, [usedLongAgo, usedRecently, stillReserved]))).map((r) => r.id);
    expect(desks.sort()).toEqual([usedRecently, stillReserved].sort());
    // Run again: nothing more to do.
    expect(await purgeAccessLog(h.deps)).toBe(0);
    expect(accessLogJobs(h.deps).map((j) => j.name)).toEqual(["purge-access-log"]);
  });
});
