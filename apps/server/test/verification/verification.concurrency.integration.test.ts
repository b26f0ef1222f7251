import { schema } from "@elo/db";
import { TRPCError } from "@trpc/server";
import { eq, inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/raw";
import { eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";

/**
 * Issue 21, part 5, on real PostgreSQL (PGlite has one connection and would prove nothing):
 * reviewers deciding the same proof at once, a double click, and an account deleted mid-review.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ poolMax: 30 });
});
afterAll(() => h.close());

type Outcome = { ok: true; who: string; status: string } | { ok: false; code: string; reason: unknown };

async function attempt(who: string, call: () => Promise<{ status: string }>): Promise<Outcome> {
  try {
    const r = await call();
    return { ok: true, who, status: r.status };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return { ok: false, code: error.code, reason: (error as { meta?: { reason?: unknown } }).meta?.reason };
  }
}

describe.runIf(onRealPostgres())("concurrent decisions", () => {
  it("two staff members, an admin and a double click on 20 proofs: one decision wins each, the others are told it was decided", async () => {
    const school = await createSchool(h);
    const [staff1, staff2, admin] = await Promise.all([createStaff(h, school.id), createStaff(h, school.id), createAdmin(h)]);
    const [a, b, c] = await Promise.all([h.caller(staff1.id), h.caller(staff2.id), h.caller(admin.id)]);
    const parents = await Promise.all(Array.from({ length: 20 }, () => eligibleParent(h, { schoolId: school.id })));
    const proofs = await Promise.all(parents.map((p) => insertProof(h, p.id, school.id)));

    const rounds = await Promise.all(
      proofs.map((proof) =>
        Promise.all([
          attempt(staff1.id, () => a.school.verifications.confirm({ id: proof.id })),
          attempt(staff1.id, () => a.school.verifications.confirm({ id: proof.id })), // the double click
          attempt(staff2.id, () => b.school.verifications.refuse({ id: proof.id, reason: "ilegivel", note: null })),
          attempt(admin.id, () => c.admin.verifications.confirm({ id: proof.id })),
        ]),
      ),
    );

    const rows = await h.db.select().from(schema.enrollmentProofs).where(inArray(schema.enrollmentProofs.id, proofs.map((p) => p.id)));
    const mails = await queryRows<{ to_address: string; n: number }>(
      h.db,
      sql`select to_address, count(*)::int as n from email_outbox where kind = 'enrollment-decision' and to_address in ${parents.map((p) => p.email)} group by to_address`,
    );
    const wins = { staff1: 0, staff2: 0, admin: 0 };
    rounds.forEach((outcomes, i) => {
      const won = outcomes.filter((o): o is Extract<Outcome, { ok: true }> => o.ok);
      expect(won, `proof ${i}`).toHaveLength(1);
      for (const lost of outcomes.filter((o) => !o.ok)) expect(lost).toMatchObject({ ok: false, code: "CONFLICT", reason: "already_decided" });
      const row = rows.find((r) => r.id === proofs[i]!.id)!;
      expect(row.decidedBy).toBe(won[0]!.who);
      expect(row.status).toBe(won[0]!.status);
      expect(row.decidedByAdmin).toBe(won[0]!.who === admin.id);
      wins[won[0]!.who === staff1.id ? "staff1" : won[0]!.who === staff2.id ? "staff2" : "admin"]++;
    });
    // One e-mail per decision, to each parent.
    expect(mails.map((m) => m.n)).toEqual(parents.map(() => 1));
    console.info(`[verification-race] 20 proofs × 4 parallel decisions: wins ${JSON.stringify(wins)}`);
  });
});

describe.runIf(onRealPostgres())("an account deleted mid-review", () => {
  it("leaves nothing in any queue or log: no proof, no opening, no decision e-mail; every reviewer gets a clean answer", async () => {
    const school = await createSchool(h);
    const [staff, admin] = await Promise.all([createStaff(h, school.id), createAdmin(h)]);
    const [s, ad] = await Promise.all([h.caller(staff.id), h.caller(admin.id)]);
    const parents = await Promise.all(Array.from({ length: 12 }, () => eligibleParent(h, { schoolId: school.id })));
    const proofs = await Promise.all(parents.map((p) => insertProof(h, p.id, school.id)));
    // Openings already recorded before the deletion.
    await Promise.all(proofs.map((p) => s.school.verifications.open({ id: p.id })));

    const answers = await Promise.all(
      parents.flatMap((parent, i) => {
        const id = proofs[i]!.id;
        return [
          h.caller(parent.id).then((api) => api.privacy.deleteAccount({ password: parent.password })).then(() => "deleted"),
          s.school.verifications.open({ id }).then(() => "200", (e: TRPCError) => e.code),
          s.school.verifications.confirm({ id }).then(() => "200", (e: TRPCError) => e.code),
          ad.admin.verifications.refuse({ id, reason: "outro_aluno", note: null }).then(() => "200", (e: TRPCError) => e.code),
        ];
      }),
    );
    for (const a of answers) expect(["deleted", "200", "NOT_FOUND", "CONFLICT"]).toContain(a);

    const ids = parents.map((p) => p.id);
    expect(await h.db.select().from(schema.enrollmentProofs).where(inArray(schema.enrollmentProofs.userId, ids))).toEqual([]);
    expect(await h.db.select().from(schema.enrollmentProofViews).where(inArray(schema.enrollmentProofViews.proofId, proofs.map((p) => p.id)))).toEqual([]);
    expect(await h.db.select().from(schema.emailOutbox).where(inArray(schema.emailOutbox.to, parents.map((p) => p.email)))).toEqual([]);
    expect(await s.school.verifications.list()).toEqual([]);
    expect((await ad.admin.verifications.list({ scope: "all" })).filter((r) => r.schoolId === school.id)).toEqual([]);
    expect(await h.db.select().from(schema.users).where(inArray(schema.users.id, ids))).toEqual([]);
    // The staff's own account is untouched.
    expect(await h.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, staff.id))).toHaveLength(1);
  });
});

describe.runIf(onRealPostgres())("a decision in flight when the account is deleted", () => {
  /** Sessions of this database waiting for a lock right now. */
  async function waitingForLocks(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    return row!.n;
  }
  async function untilWaiting(n: number) {
    for (let i = 0; i < 400 && (await waitingForLocks()) < n; i++) await new Promise((r) => setTimeout(r, 10));
  }

  it("the deletion waits for the decision and removes its e-mail too (the e-mail's insert is held at the outbox while the deletion runs)", async () => {
    const school = await createSchool(h);
    const staff = await h.caller((await createStaff(h, school.id)).id);
    const parent = await eligibleParent(h, { schoolId: school.id });
    const proof = await insertProof(h, parent.id, school.id);
    const blocker = postgres(h.dbHandle.url!, { max: 1, onnotice: () => {} });
    const hold = await blocker.reserve();
    try {
      // The decision's e-mail cannot be written while this is held: the decision stops after its UPDATE.
      await hold`begin`;
      await hold`lock table email_outbox in exclusive mode`;
      const decision = staff.school.verifications.confirm({ id: proof.id }).then(() => "200", (e: TRPCError) => e.code);
      await untilWaiting(1);
      const deletion = h.caller(parent.id).then((api) => api.privacy.deleteAccount({ password: parent.password }));
      // The deletion now waits too: for the decision's lock on the account (or, were it missing, at the outbox).
      await untilWaiting(2);
      expect(await waitingForLocks()).toBe(2);
      await hold`commit`;
      expect(await decision).toBe("200");
      await deletion;
    } finally {
      hold.release();
      await blocker.end();
    }
    expect(await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.to, parent.email))).toEqual([]);
    expect(await h.db.select().from(schema.enrollmentProofs).where(eq(schema.enrollmentProofs.userId, parent.id))).toEqual([]);
  });
});
