import { schema, type Database } from "@elo/db";
import { and, eq, lt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../../src/lib/clock";
import { expireDueVouchers } from "../../src/vouchers/expire";
import { createDiscount, createOfferingSchool } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { insertVoucher, slotCount } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";

/**
 * Every way a reserved voucher can end, racing for the same voucher on real PostgreSQL (PGlite has
 * one connection: nothing would race there). Exactly one transition wins, and the benefit's slots
 * plus its live vouchers always add up to its total.
 */
const ROUNDS = 20;
const LAST_DAY = "2026-04-10";
/** 23:59 in Brasília on the last day: the desk may still confirm. */
const BEFORE_MIDNIGHT = new Date("2026-04-11T02:59:59Z");
/** 00:00:01 the next day in Brasília: the job sees the voucher due. */
const AFTER_MIDNIGHT = new Date("2026-04-11T03:00:01Z");

let h: Harness;
let schoolId: string;
let desk: Awaited<ReturnType<Harness["caller"]>>;
let parentId: string;
let parent: Awaited<ReturnType<Harness["caller"]>>;

beforeAll(async () => {
  h = await createHarness({ poolMax: 12 });
  if (!onRealPostgres()) return;
  h.clock.set(BEFORE_MIDNIGHT);
  schoolId = (await createOfferingSchool(h)).id;
  desk = await h.caller((await createStaff(h, schoolId)).id);
  parentId = (await createUser(h)).id;
  parent = await h.caller(parentId);
}, 60_000);
afterAll(() => h.close());

/** The job as another server process would run it: its own clock, already past midnight. */
const jobAfterMidnight = () => expireDueVouchers({ ...h.deps, clock: manualClock(AFTER_MIDNIGHT) });

/** A benefit of `total` slots, one of them held by a reserved voucher whose last day is LAST_DAY. */
async function oneReserved(total: number) {
  const benefit = await createDiscount(h, schoolId, { slots: total - 1, className: `Corrida ${Math.random().toString(36).slice(2, 8)}` });
  const voucher = await insertVoucher(h, benefit, parentId, { validUntil: LAST_DAY });
  return { benefit, voucher };
}

/**
 * The expiry the real one must NOT be: read the due vouchers, then write each one's status and
 * "slots + 1" as separate statements, without re-checking that it is still reserved.
 */
/** A naive expiry runner's read: the due vouchers, outside any lock. */
async function naiveDue(db: Database) {
  return db
    .select({ id: schema.discountTransactions.id, discountId: schema.discountTransactions.discountId })
    .from(schema.discountTransactions)
    .where(and(eq(schema.discountTransactions.status, "reservado"), lt(schema.discountTransactions.validUntil, "2026-04-11")));
}

/** A naive expiry runner's writes, trusting its read. */
async function naiveExpire(db: Database, due: Array<{ id: string; discountId: string }>) {
  for (const v of due) {
    await db.update(schema.discountTransactions).set({ status: "expirado" }).where(eq(schema.discountTransactions.id, v.id));
    const [d] = await db.select({ n: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, v.discountId));
    await db.update(schema.discounts).set({ numberOfStudents: d!.n + 1 }).where(eq(schema.discounts.id, v.discountId));
  }
}

/**
 * A cancellation the real one must NOT be: check that the voucher is reserved, then mark it
 * cancelled and write "slots + 1", as separate statements.
 */
/** A naive cancellation's check: the voucher read outside any lock. */
async function naiveCheck(db: Database, voucherId: string) {
  const [v] = await db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, voucherId));
  return v?.status === "reservado" ? v : null;
}

/** A naive cancellation's write, trusting the check made before it. */
async function naiveCancelChecked(db: Database, v: { id: string; discountId: string }) {
  await db.update(schema.discountTransactions).set({ status: "cancelado", cancelReason: "outro" }).where(eq(schema.discountTransactions.id, v.id));
  const [d] = await db.select({ n: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, v.discountId));
  await db.update(schema.discounts).set({ numberOfStudents: d!.n + 1 }).where(eq(schema.discounts.id, v.discountId));
}

const cancelMails = async () => (await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "voucher-cancelled"))).length;

describe.skipIf(!onRealPostgres())("racing transitions of one voucher (real PostgreSQL)", () => {
  it(`expiry vs the desk confirming vs the desk cancelling vs the parent giving up: exactly one wins, slots never exceed the total (x${ROUNDS})`, async () => {
    const wins = { confirm: 0, cancel: 0, giveUp: 0, expiry: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const total = 2;
      const { benefit, voucher } = await oneReserved(total);
      const mailsBefore = await cancelMails();
      const [confirm, cancel, giveUp, job] = await Promise.allSettled([
        desk.school.vouchers.confirm({ code: voucher.voucherCode }),
        desk.school.vouchers.cancel({ code: voucher.voucherCode, reason: "dados_incorretos" }),
        parent.claim.giveUp({ transactionId: voucher.id }),
        jobAfterMidnight(),
      ]);
      expect(job.status, `round ${round}`).toBe("fulfilled");
      const won = {
        confirm: confirm.status === "fulfilled",
        cancel: cancel.status === "fulfilled",
        giveUp: giveUp.status === "fulfilled",
        expiry: job.status === "fulfilled" && job.value === 1,
      };
      expect(Object.values(won).filter(Boolean), `round ${round}: ${JSON.stringify(won)}`).toHaveLength(1);
      // The losers were told why, never a server error.
      for (const r of [confirm, cancel, giveUp]) if (r.status === "rejected") expect(r.reason, `round ${round}`).toMatchObject({ code: "CONFLICT" });
      for (const k of Object.keys(won) as (keyof typeof won)[]) if (won[k]) wins[k]++;

      const after = await slotCount(h, benefit.id);
      expect(after.remaining + after.reservado + after.utilizado, `round ${round}`).toBe(total);
      expect(after, `round ${round}`).toMatchObject(
        won.confirm ? { remaining: total - 1, utilizado: 1 } : won.expiry ? { remaining: total, expirado: 1 } : { remaining: total, cancelado: 1 },
      );
      expect((await cancelMails()) - mailsBefore, `round ${round}`).toBe(won.cancel ? 1 : 0);
    }
    expect(Object.values(wins).reduce((a, b) => a + b, 0)).toBe(ROUNDS);
  }, 180_000);

  it("would catch a check-then-write cancellation: two naive cancels of one voucher return its slot twice", async () => {
    // The interleaving that breaks it, forced rather than hoped for (random sleeps let a loaded
    // machine run the two one after the other): both check before either writes.
    const total = 2;
    const { benefit, voucher } = await oneReserved(total);
    const checked = await Promise.all([naiveCheck(h.db, voucher.id), naiveCheck(h.db, voucher.id)]);
    for (const v of checked) if (v) await naiveCancelChecked(h.db, v);
    const after = await slotCount(h, benefit.id);
    expect(after.remaining + after.reservado + after.utilizado).toBeGreaterThan(total);
  }, 60_000);

  it(`expiry at midnight vs the desk's confirmation a moment before: exactly one wins, the slot comes back only if it expired (x${ROUNDS})`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const total = 3;
      const { benefit, voucher } = await oneReserved(total);
      const [confirm, job1, job2] = await Promise.allSettled([desk.school.vouchers.confirm({ code: voucher.voucherCode }), jobAfterMidnight(), jobAfterMidnight()]);
      const expiredByJobs = [job1, job2].reduce((n, r) => n + (r.status === "fulfilled" ? r.value : 0), 0);
      for (const r of [job1, job2]) expect(r.status, `round ${round}`).toBe("fulfilled");
      const after = await slotCount(h, benefit.id);
      if (confirm.status === "fulfilled") {
        expect(expiredByJobs, `round ${round}`).toBe(0);
        expect(after, `round ${round}`).toMatchObject({ remaining: total - 1, utilizado: 1, expirado: 0, reservado: 0 });
      } else {
        expect(expiredByJobs, `round ${round}`).toBe(1);
        expect(after, `round ${round}`).toMatchObject({ remaining: total, utilizado: 0, expirado: 1, reservado: 0 });
      }
    }
  }, 120_000);

  it("four job runners at once expire 40 due vouchers exactly once each", async () => {
    const benefits = await Promise.all([0, 1, 2, 3].map(() => createDiscount(h, schoolId, { slots: 0, className: `Lote ${Math.random().toString(36).slice(2, 8)}` })));
    for (const b of benefits) for (let i = 0; i < 10; i++) await insertVoucher(h, b, parentId, { validUntil: LAST_DAY });
    const runs = await Promise.all([0, 1, 2, 3].map(() => jobAfterMidnight()));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(40);
    for (const b of benefits) expect(await slotCount(h, b.id)).toMatchObject({ remaining: 10, reservado: 0, expirado: 10 });
  }, 60_000);

  it("would catch a read-then-write expiry: two naive runners give one slot back twice", async () => {
    // Expire everything earlier tests left due, so the naive runners only see this voucher.
    await jobAfterMidnight();
    const total = 3;
    const { benefit } = await oneReserved(total);
    // The interleaving that breaks it, forced (random sleeps let a loaded machine run the two one
    // after the other): both runners read before either writes.
    const reads = await Promise.all([naiveDue(h.db), naiveDue(h.db)]);
    for (const due of reads) await naiveExpire(h.db, due);
    const after = await slotCount(h, benefit.id);
    expect(after.remaining + after.reservado + after.utilizado).toBeGreaterThan(total);
  }, 60_000);
});

it.skipIf(onRealPostgres())("voucher races need real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
