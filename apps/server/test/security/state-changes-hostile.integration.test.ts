import { schema } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { and, eq, ne, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createAdmin } from "../support/factories/users";
import { insertVoucher, slotCount } from "../support/factories/vouchers";
import { placeInLine } from "../support/factories/waitlist";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { rawBurst, type RawExchange } from "../support/raw-http";
import { batchMutation, callResults, URL_VARIANTS, variantMutation, type MutationCall } from "./limit-variants";

/**
 * The one-time state changes of vouchers, the waitlist and enrollment verification, proved through a
 * listening server with real bytes (issue 15's closing gaps): the same call in every URL shape the
 * router accepts and in a batch, parallel bursts, and another person's request. Whatever arrives,
 * the change happens at most once (one slot back, one voucher, one decision, one e-mail) and only
 * for whom it belongs to. On PGlite the server serialises the burst; real PostgreSQL races it.
 */

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s), { poolMax: 24 });

const BURST = 20;

/** One target of an operation, made fresh for each test. */
interface Target {
  /** The call of the person the target belongs to. */
  owner: MutationCall;
  /** A parallel burst on the target; default: the owner's call BURST times. */
  burst?: MutationCall[];
  /** Calls by people the target is not theirs (and ids as substrings of the real one): never served. */
  foreign: MutationCall[];
  /** The target's rows and e-mails, as figures that change exactly once. */
  state(): Promise<Record<string, number>>;
}

interface Operation {
  name: string;
  fresh(): Promise<Target>;
  before: Record<string, number>;
  after: Record<string, number>;
}

const cookieOf = (userId: string) => sessionCookie(h, userId);
const mailsTo = async (email: string, kind: string) =>
  (await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, kind)))).length;
const places = (discountId: string, userId: string, status: "waiting" | "offered") =>
  h.db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.waitlistEntries)
    .where(and(eq(schema.waitlistEntries.discountId, discountId), eq(schema.waitlistEntries.userId, userId), eq(schema.waitlistEntries.status, status)))
    .then(([r]) => r!.n);

/** A uuid's look-alikes: a prefix, one character short or long (400), the same id in capitals (the same uuid to PostgreSQL). */
const uuidLookalikes = (id: string) => [id, id.toUpperCase(), id.slice(0, 8), id.slice(0, -1), `${id}0`, `${id.slice(0, 8)}%`];
/** A voucher code's spellings the desk accepts (lower case, no hyphen, spaces) and wildcards (400). */
const codeLookalikes = (code: string) => [code, code.toLowerCase(), code.replace("-", ""), ` ${code.slice(0, 4)} ${code.slice(5)} `, `${code.slice(0, 5)}%`, "%", `${code.slice(0, 5)}____`];

let mainSchoolId: string | undefined;
/** A parent allowed to claim, join and give up (complete profile, proof sent, a main school of Ed. Básica). */
async function parent() {
  mainSchoolId ??= (await createSchool(h, { niche: "Ed. Básica" })).id;
  const p = await eligibleParent(h, { schoolId: mainSchoolId });
  return { ...p, cookie: await cookieOf(p.id) };
}

/** A Gold school with its desk and a benefit of `slots` slots. */
async function benefitWithDesk(slots: number) {
  const school = await createOfferingSchool(h);
  const desk = await createStaff(h, school.id);
  const benefit = await createDiscount(h, school.id, { slots, className: `Turma ${Math.random().toString(36).slice(2, 8)}` });
  return { school, desk: { ...desk, cookie: await cookieOf(desk.id) }, benefit };
}

/** A pending proof of a parent of a school with staff, the staff, another school's staff and an admin. */
async function pendingProof() {
  const school = await createSchool(h);
  const [staff, otherStaff, admin] = await Promise.all([createStaff(h, school.id), createStaff(h, (await createSchool(h)).id), createAdmin(h)]);
  const p = await eligibleParent(h, { schoolId: school.id });
  const proof = await insertProof(h, p.id, school.id);
  const [staffCookie, otherCookie, adminCookie, parentCookie] = await Promise.all([cookieOf(staff.id), cookieOf(otherStaff.id), cookieOf(admin.id), cookieOf(p.id)]);
  const decided = async () => {
    const [row] = await h.db.select({ n: sql<number>`count(*)::int` }).from(schema.enrollmentProofs).where(and(eq(schema.enrollmentProofs.id, proof.id), ne(schema.enrollmentProofs.status, "enviado")));
    return { decided: row!.n, mails: await mailsTo(p.email, "enrollment-decision") };
  };
  const refuse = (id: string) => ({ id, reason: "ilegivel", note: null });
  /** Two staff decisions and two admin decisions, confirming and refusing, BURST in all. */
  const mixed = Array.from({ length: BURST }, (_, i): MutationCall => {
    const byAdmin = i % 4 >= 2;
    const confirm = i % 2 === 0;
    return { procedure: `${byAdmin ? "admin" : "school"}.verifications.${confirm ? "confirm" : "refuse"}`, input: confirm ? { id: proof.id } : refuse(proof.id), cookie: byAdmin ? adminCookie : staffCookie };
  });
  return { proof, staffCookie, otherCookie, adminCookie, parentCookie, decided, refuse, mixed };
}

const OPERATIONS: Operation[] = [
  {
    name: "the school cancels a voucher (school.vouchers.cancel)",
    async fresh() {
      const { desk, benefit } = await benefitWithDesk(0);
      const holder = await parent();
      const voucher = await insertVoucher(h, benefit, holder.id);
      const other = await benefitWithDesk(1);
      return {
        owner: { procedure: "school.vouchers.cancel", input: { code: voucher.voucherCode, reason: "nao_matriculado" }, cookie: desk.cookie },
        // Another school's desk with the code as typed, in other spellings and as wildcards.
        foreign: codeLookalikes(voucher.voucherCode).map((code) => ({ procedure: "school.vouchers.cancel", input: { code, reason: "nao_matriculado" }, cookie: other.desk.cookie })),
        state: async () => {
          const s = await slotCount(h, benefit.id);
          return { remaining: s.remaining, reservado: s.reservado, cancelado: s.cancelado, mails: await mailsTo(holder.email, "voucher-cancelled") };
        },
      };
    },
    before: { remaining: 0, reservado: 1, cancelado: 0, mails: 0 },
    after: { remaining: 1, reservado: 0, cancelado: 1, mails: 1 },
  },
  {
    name: "the parent gives a voucher up (claim.giveUp) while the desk confirms it",
    async fresh() {
      const { desk, benefit } = await benefitWithDesk(0);
      const holder = await parent();
      const voucher = await insertVoucher(h, benefit, holder.id);
      const other = await parent();
      const giveUp = { procedure: "claim.giveUp", input: { transactionId: voucher.id }, cookie: holder.cookie };
      const confirm = { procedure: "school.vouchers.confirm", input: { code: voucher.voucherCode }, cookie: desk.cookie };
      return {
        owner: giveUp,
        burst: Array.from({ length: BURST }, (_, i) => (i % 2 ? confirm : giveUp)),
        foreign: uuidLookalikes(voucher.id).map((transactionId) => ({ procedure: "claim.giveUp", input: { transactionId }, cookie: other.cookie })),
        state: async () => {
          const s = await slotCount(h, benefit.id);
          return { reservado: s.reservado, ended: s.utilizado + s.cancelado, total: s.remaining + s.reservado + s.utilizado };
        },
      };
    },
    before: { reservado: 1, ended: 0, total: 1 },
    after: { reservado: 0, ended: 1, total: 1 },
  },
  {
    name: "the parent claims the slot offered to them (waitlist.claimOffer)",
    async fresh() {
      const { benefit } = await benefitWithDesk(0);
      const [offered, next] = [await parent(), await parent()];
      await placeInLine(h, benefit.id, offered.id, { offered: true });
      await placeInLine(h, benefit.id, next.id);
      const vouchers = async (userId: string) =>
        (await h.db.select({ id: schema.discountTransactions.id }).from(schema.discountTransactions).where(and(eq(schema.discountTransactions.discountId, benefit.id), eq(schema.discountTransactions.userId, userId)))).length;
      return {
        owner: { procedure: "waitlist.claimOffer", input: { discountId: benefit.id }, cookie: offered.cookie },
        // The next in line (waiting, no offer) tries to take it.
        foreign: uuidLookalikes(benefit.id).map((discountId) => ({ procedure: "waitlist.claimOffer", input: { discountId }, cookie: next.cookie })),
        state: async () => ({
          offers: await places(benefit.id, offered.id, "offered"),
          vouchers: await vouchers(offered.id),
          nextVouchers: await vouchers(next.id),
          nextWaiting: await places(benefit.id, next.id, "waiting"),
          mails: await mailsTo(offered.email, "voucher"),
          remaining: (await slotCount(h, benefit.id)).remaining,
        }),
      };
    },
    before: { offers: 1, vouchers: 0, nextVouchers: 0, nextWaiting: 1, mails: 0, remaining: 0 },
    after: { offers: 0, vouchers: 1, nextVouchers: 0, nextWaiting: 1, mails: 1, remaining: 0 },
  },
  {
    name: "the parent joins a sold-out benefit's line (waitlist.join)",
    async fresh() {
      const { benefit } = await benefitWithDesk(0);
      const p = await parent();
      return {
        owner: { procedure: "waitlist.join", input: { discountId: benefit.id }, cookie: p.cookie },
        // Joining only ever concerns the caller's own place: look-alike ids join nothing.
        foreign: uuidLookalikes(benefit.id)
          .slice(2)
          .map((discountId) => ({ procedure: "waitlist.join", input: { discountId }, cookie: p.cookie })),
        state: async () => ({ waiting: await places(benefit.id, p.id, "waiting") }),
      };
    },
    before: { waiting: 0 },
    after: { waiting: 1 },
  },
  {
    name: "the parent leaves the line holding an offer (waitlist.leave): the slot passes on once",
    async fresh() {
      const { benefit } = await benefitWithDesk(0);
      const [leaving, next, outsider] = [await parent(), await parent(), await parent()];
      await placeInLine(h, benefit.id, leaving.id, { offered: true });
      await placeInLine(h, benefit.id, next.id);
      return {
        owner: { procedure: "waitlist.leave", input: { discountId: benefit.id }, cookie: leaving.cookie },
        // A parent outside the line cannot end someone else's place.
        foreign: uuidLookalikes(benefit.id).map((discountId) => ({ procedure: "waitlist.leave", input: { discountId }, cookie: outsider.cookie })),
        state: async () => ({
          leavingOffered: await places(benefit.id, leaving.id, "offered"),
          nextOffered: await places(benefit.id, next.id, "offered"),
          offerMails: await mailsTo(next.email, "waitlist-offer"),
          remaining: (await slotCount(h, benefit.id)).remaining,
        }),
      };
    },
    before: { leavingOffered: 1, nextOffered: 0, offerMails: 0, remaining: 0 },
    after: { leavingOffered: 0, nextOffered: 1, offerMails: 1, remaining: 0 },
  },
  {
    name: "the school's 'Confirmar matrículas' decides a proof (school.verifications.confirm) while the admin decides it too",
    async fresh() {
      const w = await pendingProof();
      return {
        owner: { procedure: "school.verifications.confirm", input: { id: w.proof.id }, cookie: w.staffCookie },
        burst: w.mixed,
        // The staff of another school, with the id and its look-alikes, confirming and refusing.
        foreign: uuidLookalikes(w.proof.id).flatMap((id) => [
          { procedure: "school.verifications.confirm", input: { id }, cookie: w.otherCookie },
          { procedure: "school.verifications.refuse", input: w.refuse(id), cookie: w.otherCookie },
        ]),
        state: w.decided,
      };
    },
    before: { decided: 0, mails: 0 },
    after: { decided: 1, mails: 1 },
  },
  {
    name: "the admin decides a proof on /admin-pais (admin.verifications.refuse) while the school decides it too",
    async fresh() {
      const w = await pendingProof();
      return {
        owner: { procedure: "admin.verifications.refuse", input: w.refuse(w.proof.id), cookie: w.adminCookie },
        burst: w.mixed.reverse(),
        // The parent and the school's staff calling the admin's procedure.
        foreign: [w.parentCookie, w.staffCookie, w.otherCookie].flatMap((cookie) => [
          { procedure: "admin.verifications.refuse", input: w.refuse(w.proof.id), cookie },
          { procedure: "admin.verifications.confirm", input: { id: w.proof.id }, cookie },
        ]),
        state: w.decided,
      };
    },
    before: { decided: 0, mails: 0 },
    after: { decided: 1, mails: 1 },
  },
];

/** Every call's result in the answers of `requests`, sent all at once. */
async function burst(requests: RawExchange[]) {
  const answers = await rawBurst(server.url, requests);
  return { answers, results: answers.flatMap(callResults), statuses: answers.map((a) => a.status) };
}

/** None of the answers is a server error: a call that loses is told why (4xx) or refused by the router. */
function expectNoServerError({ results, statuses }: { results: string[]; statuses: number[] }, label: string) {
  expect(statuses.filter((s) => s >= 500), label).toEqual([]);
  expect(results.filter((r) => r === "INTERNAL_SERVER_ERROR"), label).toEqual([]);
}

const plain = URL_VARIANTS[0]!;
/** What each shape came to across the file, for docs/reliability.md. */
const tally: Record<string, Record<string, number>> = {};
afterAll(() => console.log(JSON.stringify({ stateChangeShapes: tally })));

describe.each(OPERATIONS)("$name", (op) => {
  it(`a burst of ${BURST} at once changes it exactly once`, async () => {
    const t = await op.fresh();
    expect(await t.state()).toEqual(op.before);
    const answers = await burst((t.burst ?? Array(BURST).fill(t.owner)).map((c: MutationCall) => variantMutation(c, plain, server.url)));
    expectNoServerError(answers, op.name);
    expect(answers.results.filter((r) => r === "ok"), JSON.stringify(answers.results)).toHaveLength(1);
    expect(await t.state()).toEqual(op.after);
  });

  it(`every URL shape (${URL_VARIANTS.length}) and a batch of ${LIMITS.batchMaxCalls}, at once: served at most once`, async () => {
    const t = await op.fresh();
    const requests = [...URL_VARIANTS.map((v) => variantMutation(t.owner, v, server.url)), batchMutation(Array(LIMITS.batchMaxCalls).fill(t.owner))];
    const sent = await burst(requests);
    expectNoServerError(sent, op.name);
    expect(sent.results.filter((r) => r === "ok"), JSON.stringify(sent.results)).toHaveLength(1);
    expect(await t.state()).toEqual(op.after);
    sent.answers.forEach((a, i) => {
      const shape = URL_VARIANTS[i]?.name ?? `batch of ${LIMITS.batchMaxCalls}`;
      const kind = callResults(a).some((r) => !r.startsWith("refused")) ? "served" : "refused";
      tally[shape] = { ...tally[shape], [kind]: (tally[shape]?.[kind] ?? 0) + 1 };
    });
  });

  it("another person's request, in every shape and with look-alike ids, changes nothing; the owner's still does", async () => {
    const t = await op.fresh();
    // The first foreign call (the real id or code) in every shape, the look-alikes plainly and together in one batch.
    const [first, ...lookalikes] = t.foreign;
    const sameCaller = t.foreign.filter((c) => c.cookie === first!.cookie);
    const requests = [
      ...URL_VARIANTS.map((v) => variantMutation(first!, v, server.url)),
      ...lookalikes.map((c) => variantMutation(c, plain, server.url)),
      ...(sameCaller.length > 1 ? [batchMutation(sameCaller)] : []),
    ];
    const answers = await burst(requests);
    expectNoServerError(answers, op.name);
    expect(answers.results.filter((r) => r === "ok"), "served to someone the target is not theirs").toEqual([]);
    expect(await t.state()).toEqual(op.before);
    // The target was live all along: its owner's call changes it.
    const own = await burst([variantMutation(t.owner, plain, server.url)]);
    expect(own.results).toEqual(["ok"]);
    expect(await t.state()).toEqual(op.after);
  });
});
