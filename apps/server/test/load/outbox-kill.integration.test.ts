import { schema } from "@elo/db";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signupInputFor } from "../support/factories/auth";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff, place } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { insertVoucher } from "../support/factories/vouchers";
import { placeInLine } from "../support/factories/waitlist";
import { spawnServer, withSpawnedServer, type ChildServer, type SpawnedWorld } from "../support/child-server";
import type { Harness } from "../support/harness";
import { startSmtpServer, type ReceivedMail } from "../support/smtp";
import { onRealPostgres } from "../support/test-db";
import { byStatus, mutate, seedClaimStorm, type Outcome } from "./storm";

/**
 * Issue 15, point 8, and its closing gaps: `kill -9` of the spawned built server while every kind of
 * state change that sends an e-mail is in flight at once. Each change queues its e-mail in its own
 * transaction, so a server started afterwards (with SMTP) must deliver exactly one e-mail per change
 * that committed, and none for a change that did not, whatever the moment of the kill.
 */

/** ADMIN_EMAIL's default: both servers run without setting it. */
const ADMIN = "contato@eloescolar.com.br";

/** One e-mail that must (or must not) have been delivered: its recipient and what its text holds. */
interface Mail {
  to: string;
  has: string[];
  /** The recipient's account: the outbox row must be keyed to it (decision 102). */
  userId?: string;
}

interface KillCase {
  name: string;
  /** The outbox kind of the case's e-mails. */
  kind: string;
  /** The kill waits until this many of the case's requests are answered: the rest are in flight. */
  killAfter: number;
  /** Makes the case's world: the requests to send, and (read after the kill) what committed. */
  seed(h: Harness): Promise<{ requests: Array<{ path: string; input: unknown; cookie?: string }>; committed(): Promise<{ sent: Mail[]; none: Mail[] }> }>;
}

const unique = (label: string) => `${label} ${process.pid} ${Math.random().toString(36).slice(2, 8)}`;
const cookies = (h: Harness, ids: string[]) => Promise.all(ids.map((id) => sessionCookie(h, id)));
const split = <T,>(rows: T[], done: (row: T) => boolean, mail: (row: T) => Mail) => ({ sent: rows.filter(done).map(mail), none: rows.filter((r) => !done(r)).map(mail) });

/** `count` parents, each with a proof of a school of their own that its staff member opened (issue 27's discard notices). */
async function familiesWithOpenedProofs(h: Harness, count: number) {
  const families: Array<{ parent: Awaited<ReturnType<typeof eligibleParent>>; staff: Awaited<ReturnType<typeof createStaff>>; proofId: string }> = [];
  for (let i = 0; i < count; i++) {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const parent = await eligibleParent(h, { schoolId: school.id });
    const proof = await insertProof(h, parent.id, school.id);
    await h.db.insert(schema.enrollmentProofViews).values({ proofId: proof.id, viewerId: staff.id, viewerSchoolId: school.id, purpose: "verificacao_matricula" });
    families.push({ parent, staff, proofId: proof.id });
  }
  return families;
}

const CASES: KillCase[] = [
  {
    name: "claim: the voucher e-mail",
    kind: "voucher",
    killAfter: 20,
    async seed(h) {
      const storm = await seedClaimStorm(h, 150, 150);
      const parents = await h.db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).where(inArray(schema.users.id, storm.parentIds));
      return {
        requests: storm.cookies.map((cookie) => ({ path: "claim.create", input: { discountId: storm.discountId }, cookie })),
        async committed() {
          const vouchers = await h.db.select({ userId: schema.discountTransactions.userId, code: schema.discountTransactions.voucherCode }).from(schema.discountTransactions).where(eq(schema.discountTransactions.discountId, storm.discountId));
          const codeOf = new Map(vouchers.map((v) => [v.userId, v.code]));
          return split(parents, (p) => codeOf.has(p.id), (p) => ({ to: p.email, has: codeOf.has(p.id) ? [codeOf.get(p.id)!] : [], userId: p.id }));
        },
      };
    },
  },
  {
    name: "school registration: the admin's e-mail",
    kind: "school-registration",
    killAfter: 3,
    async seed(h) {
      const loc = await place(h);
      const parents = await Promise.all(Array.from({ length: 40 }, () => eligibleParent(h)));
      const names = parents.map((_, i) => `${unique("Escola Pedida Kill")} ${String(i).padStart(3, "0")}`);
      return {
        requests: (await cookies(h, parents.map((p) => p.id))).map((cookie, i) => ({
          path: "profile.requestSchool",
          input: { name: names[i], stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId, target: "enrollment" },
          cookie,
        })),
        async committed() {
          const stored = await h.db.select({ name: schema.schools.name }).from(schema.schools).where(and(inArray(schema.schools.name, names), eq(schema.schools.origin, "parent_request")));
          const done = new Set(stored.map((s) => s.name));
          return split(names, (n) => done.has(n), (n) => ({ to: ADMIN, has: [n] }));
        },
      };
    },
  },
  {
    name: "the school cancels a voucher: the parent's e-mail",
    kind: "voucher-cancelled",
    killAfter: 5,
    async seed(h) {
      const school = await createOfferingSchool(h);
      const [desk] = await cookies(h, [(await createStaff(h, school.id)).id]);
      const benefit = await createDiscount(h, school.id, { slots: 0 });
      const holders = await Promise.all(Array.from({ length: 40 }, () => eligibleParent(h)));
      const vouchers: Array<{ id: string; voucherCode: string; userId: string | null; email: string }> = [];
      for (const p of holders) vouchers.push({ ...(await insertVoucher(h, benefit, p.id)), email: p.email });
      return {
        requests: vouchers.map((v) => ({ path: "school.vouchers.cancel", input: { code: v.voucherCode, reason: "nao_matriculado" }, cookie: desk })),
        async committed() {
          const rows = await h.db.select({ id: schema.discountTransactions.id, status: schema.discountTransactions.status }).from(schema.discountTransactions).where(eq(schema.discountTransactions.discountId, benefit.id));
          const cancelled = new Set(rows.filter((r) => r.status === "cancelado").map((r) => r.id));
          return split(vouchers, (v) => cancelled.has(v.id), (v) => ({ to: v.email, has: [v.voucherCode], userId: v.userId! }));
        },
      };
    },
  },
  {
    name: "a slot given up passes to the line: the waitlist offer e-mail",
    kind: "waitlist-offer",
    killAfter: 5,
    async seed(h) {
      const school = await createOfferingSchool(h);
      const benefit = await createDiscount(h, school.id, { slots: 0, className: unique("Turma da Fila") });
      const main = await createSchool(h, { niche: "Ed. Básica" });
      const holders = await Promise.all(Array.from({ length: 40 }, () => eligibleParent(h, { schoolId: main.id })));
      const line = await Promise.all(Array.from({ length: 40 }, () => eligibleParent(h, { schoolId: main.id })));
      const vouchers = [];
      for (const p of holders) vouchers.push(await insertVoucher(h, benefit, p.id));
      for (const p of line) await placeInLine(h, benefit.id, p.id);
      const holderCookies = await cookies(h, holders.map((p) => p.id));
      return {
        requests: vouchers.map((v, i) => ({ path: "claim.giveUp", input: { transactionId: v.id }, cookie: holderCookies[i] })),
        async committed() {
          const rows = await h.db.select({ userId: schema.waitlistEntries.userId, status: schema.waitlistEntries.status }).from(schema.waitlistEntries).where(eq(schema.waitlistEntries.discountId, benefit.id));
          const offered = new Set(rows.filter((r) => r.status === "offered").map((r) => r.userId));
          return split(line, (p) => offered.has(p.id), (p) => ({ to: p.email, has: [benefit.className], userId: p.id }));
        },
      };
    },
  },
  {
    name: "signup: the e-mail confirmation link",
    kind: "email-confirmation",
    killAfter: 3,
    async seed(h) {
      const inputs = await Promise.all(Array.from({ length: 30 }, () => signupInputFor(h)));
      return {
        requests: inputs.map((input) => ({ path: "auth.signup", input })),
        async committed() {
          const users = await h.db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).where(inArray(schema.users.email, inputs.map((i) => i.email)));
          const idOf = new Map(users.map((u) => [u.email, u.id]));
          return split(inputs, (i) => idOf.has(i.email), (i) => ({ to: i.email, has: ["/confirmar-email?token="], userId: idOf.get(i.email) }));
        },
      };
    },
  },
  {
    name: "'Confirmar matrículas' decides a proof: the parent's e-mail",
    kind: "enrollment-decision",
    killAfter: 5,
    async seed(h) {
      const school = await createSchool(h);
      const [staff] = await cookies(h, [(await createStaff(h, school.id)).id]);
      const parents = await Promise.all(Array.from({ length: 40 }, () => eligibleParent(h, { schoolId: school.id })));
      const proofs: Array<{ id: string; userId: string; email: string }> = [];
      for (const p of parents) proofs.push({ ...(await insertProof(h, p.id, school.id)), email: p.email });
      return {
        requests: proofs.map((p, i) => (i % 2 ? { path: "school.verifications.confirm", input: { id: p.id }, cookie: staff } : { path: "school.verifications.refuse", input: { id: p.id, reason: "ilegivel", note: null }, cookie: staff })),
        async committed() {
          const rows = await h.db.select({ id: schema.enrollmentProofs.id, status: schema.enrollmentProofs.status }).from(schema.enrollmentProofs).where(inArray(schema.enrollmentProofs.id, proofs.map((p) => p.id)));
          const decided = new Set(rows.filter((r) => r.status !== "enviado").map((r) => r.id));
          return split(proofs, (p) => decided.has(p.id), (p) => ({ to: p.email, has: [school.name], userId: p.userId }));
        },
      };
    },
  },
  {
    name: "an administrator opens a proof with a purpose: the parent's e-mail (issue 27)",
    kind: "proof-opened-by-admin",
    killAfter: 5,
    async seed(h) {
      const school = await createSchool(h);
      const admin = await createUser(h, { admin: true });
      const [cookie] = await cookies(h, [admin.id]);
      const parents = await Promise.all(Array.from({ length: 40 }, () => eligibleParent(h, { schoolId: school.id })));
      const proofs: Array<{ id: string; userId: string; email: string; studentName: string }> = [];
      for (const p of parents) {
        const studentName = unique("Aluno Aberto");
        proofs.push({ ...(await insertProof(h, p.id, school.id, { studentName })), email: p.email, studentName });
      }
      return {
        requests: proofs.map((p) => ({ path: "admin.verifications.open", input: { id: p.id, purpose: "revisao_administrador" }, cookie })),
        async committed() {
          const rows = await h.db.select({ proofId: schema.enrollmentProofViews.proofId }).from(schema.enrollmentProofViews).where(inArray(schema.enrollmentProofViews.proofId, proofs.map((p) => p.id)));
          const opened = new Set(rows.map((r) => r.proofId));
          return split(proofs, (p) => opened.has(p.id), (p) => ({ to: p.email, has: [p.studentName, "revisão pelo administrador"], userId: p.userId }));
        },
      };
    },
  },
  {
    name: "an account deletion: the discard notice to the staff of each school that opened the proof (issue 27)",
    kind: "discard-copies",
    killAfter: 3,
    async seed(h) {
      const families = await familiesWithOpenedProofs(h, 20);
      const parentCookies = await cookies(h, families.map((f) => f.parent.id));
      return {
        requests: families.map((f, i) => ({ path: "privacy.deleteAccount", input: { password: f.parent.password }, cookie: parentCookies[i] })),
        async committed() {
          const left = await h.db.select({ id: schema.users.id }).from(schema.users).where(inArray(schema.users.id, families.map((f) => f.parent.id)));
          const alive = new Set(left.map((u) => u.id));
          return split(families, (f) => !alive.has(f.parent.id), (f) => ({ to: f.staff.email, has: ["Descarte cópias de um comprovante de matrícula"], userId: f.staff.id }));
        },
      };
    },
  },
  {
    name: "a change of main school withdraws an opened proof: the discard notice to that school's staff (issue 27, decision 193)",
    kind: "discard-copies",
    killAfter: 3,
    async seed(h) {
      const elsewhere = await createSchool(h);
      const families = await familiesWithOpenedProofs(h, 40);
      const parentCookies = await cookies(h, families.map((f) => f.parent.id));
      return {
        requests: families.map((_, i) => ({ path: "profile.saveMainSchool", input: { schoolId: elsewhere.id }, cookie: parentCookies[i] })),
        async committed() {
          const rows = await h.db.select({ id: schema.enrollmentProofs.id, replacedAt: schema.enrollmentProofs.replacedAt }).from(schema.enrollmentProofs).where(inArray(schema.enrollmentProofs.id, families.map((f) => f.proofId)));
          const withdrawn = new Set(rows.filter((r) => r.replacedAt).map((r) => r.id));
          return split(families, (f) => withdrawn.has(f.proofId), (f) => ({ to: f.staff.email, has: ["Descarte cópias de um comprovante de matrícula"], userId: f.staff.id }));
        },
      };
    },
  },
];

/** The delivered e-mails that are this one: its recipient, and its text holds every marker. */
const matching = (mails: ReceivedMail[], m: Mail) => mails.filter((r) => r.to.includes(m.to) && m.has.every((s) => r.text.includes(s)));

describe.skipIf(!onRealPostgres())("kill -9 while every kind of e-mailed change is in flight (real PostgreSQL, spawned built server)", () => {
  let h: Harness;
  let world: SpawnedWorld;
  let server: ChildServer;
  withSpawnedServer((w) => ({ h, server } = (world = w)));

  it(`${CASES.map((c) => c.kind).join(", ")}: SIGKILL mid-storm, every committed change is e-mailed exactly once after restart, none that did not commit`, async () => {
    const seeded = [];
    for (const c of CASES) seeded.push(await c.seed(h));

    // The kill comes once every case has been answered a few times: the rest of each is in flight.
    const answers = CASES.map(() => 0);
    let killedAt = 0;
    const countAndKill = (i: number) => (o: Outcome) => {
      if (o.status !== 0) answers[i]!++;
      if (!killedAt && CASES.every((c, j) => answers[j]! >= c.killAfter)) {
        killedAt = Date.now();
        server.proc.kill("SIGKILL");
      }
      return o;
    };
    // Interleaved, so that the kill finds every kind half done.
    const longest = Math.max(...seeded.map((s) => s.requests.length));
    const pending: Array<Promise<Outcome & { case: number }>> = [];
    for (let k = 0; k < longest; k++) {
      seeded.forEach((s, i) => {
        const r = s.requests[k];
        if (r) pending.push(mutate(server.url, r.path, r.input, r.cookie).then(countAndKill(i)).then((o) => ({ ...o, case: i })));
      });
    }
    const outcomes = await Promise.all(pending);
    expect((await server.exited).signal).toBe("SIGKILL");

    // What committed before the kill, whatever the clients were told.
    const committed = await Promise.all(seeded.map((s) => s.committed()));
    // Rows the killed process queued but never rendered: the next server renders them from their data.
    const unrendered = await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(isNull(schema.emailOutbox.subject));

    // A server started afterwards delivers what the outbox holds.
    const smtp = await startSmtpServer();
    const again = await spawnServer(world.bundle.bundle, (h.dbHandle as { url: string }).url, { SMTP_URL: smtp.url });
    try {
      const expected = committed.reduce((n, c) => n + c.sent.length, 0);
      // One SMTP exchange at a time: a few hundred e-mails take a while on a busy machine.
      const deadline = Date.now() + 150_000;
      while (Date.now() < deadline) {
        const queued = await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(eq(schema.emailOutbox.status, "pending"));
        if (queued.length === 0 && smtp.received.length >= expected) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const mails = smtp.received;
      const figures = CASES.map((c, i) => ({
        case: c.kind,
        statuses: byStatus(outcomes.filter((o) => o.case === i)),
        committed: committed[i]!.sent.length,
        notCommitted: committed[i]!.none.length,
        lost: committed[i]!.sent.filter((m) => matching(mails, m).length === 0).length,
        twice: committed[i]!.sent.filter((m) => matching(mails, m).length > 1).length,
        sentForUncommitted: committed[i]!.none.filter((m) => matching(mails, m).length > 0).length,
      }));
      const stuck = await h.db
        .select({ kind: schema.emailOutbox.kind, attempts: schema.emailOutbox.attempts, lastError: schema.emailOutbox.lastError, next: schema.emailOutbox.nextAttemptAt })
        .from(schema.emailOutbox)
        .where(eq(schema.emailOutbox.status, "pending"));
      console.log(`[outbox-kill] ${JSON.stringify({ cases: figures, unrenderedAtKill: unrendered.length, mailsDelivered: mails.length, stillPending: stuck.slice(0, 5), stillPendingCount: stuck.length, deliveredWithinMs: Date.now() - killedAt })}`);

      // The kill really cut the storm: some requests never got an answer.
      expect(killedAt).toBeGreaterThan(0);
      expect(outcomes.some((o) => o.status === 0)).toBe(true);
      for (const [i, c] of CASES.entries()) {
        const { sent, none } = committed[i]!;
        expect(sent.length, `${c.name}: committed`).toBeGreaterThanOrEqual(c.killAfter);
        expect(sent.filter((m) => matching(mails, m).length !== 1).map((m) => m.to), `${c.name}: committed changes not e-mailed exactly once`).toEqual([]);
        expect(none.filter((m) => matching(mails, m).length > 0).map((m) => m.to), `${c.name}: e-mails for changes that did not commit`).toEqual([]);
        // And by key: the case's outbox rows are exactly those of its committed changes' recipients.
        const keyed = sent.filter((m) => m.userId).map((m) => m.userId!);
        if (keyed.length > 0) {
          const rows = await h.db.select({ userId: schema.emailOutbox.userId }).from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, c.kind));
          // Two cases share an e-mail kind (discard-copies): each checks the rows of its own recipients.
          const shared = CASES.some((o) => o !== c && o.kind === c.kind);
          const mine = new Set([...sent, ...none].map((m) => m.userId));
          const own = shared ? rows.filter((r) => mine.has(r.userId ?? undefined)) : rows;
          expect(own.map((r) => r.userId).sort(), `${c.name}: outbox rows by recipient`).toEqual(keyed.sort());
        }
      }
      expect(mails.length).toBe(expected);
    } finally {
      await again.dispose();
      await smtp.close();
    }
  }, 400_000);
});

it.skipIf(onRealPostgres())("the kill test needs real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
