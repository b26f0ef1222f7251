import { schema } from "@elo/db";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendRenewalRequests } from "../../src/jobs/renewal-requests";
import { addEnrollment, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";

/** Issue 21, part 4: the January e-mail asking for the new school year's proof, sent by a scheduled job. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ poolMax: 12 });
});
afterAll(() => h.close());

const YEAR = 2031;
const END_OF_FEB = `${YEAR}-02-28`;
const at = (isoDay: string) => new Date(`${isoDay}T12:00:00-03:00`);
const renewalMails = (emails: string[]) =>
  h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.kind, "enrollment-renewal"), inArray(schema.emailOutbox.to, emails)));

/** Parents in every situation the job must tell apart. */
async function families() {
  const horizonte = await createSchool(h, { name: `Colégio Horizonte ${Math.random().toString(36).slice(2, 7)}` });
  const idiomas = await createSchool(h, { name: `Escola de Idiomas ${Math.random().toString(36).slice(2, 7)}` });
  const parent = (fullName: string) => eligibleParent(h, { schoolId: horizonte.id, profile: { fullName } });
  const verifiedMain = await parent("Ana Main");
  await insertProof(h, verifiedMain.id, horizonte.id, { status: "verificado", verifiedUntil: END_OF_FEB });
  const two = await parent("Bruno Duas");
  await insertProof(h, two.id, horizonte.id, { status: "verificado", verifiedUntil: END_OF_FEB });
  const enrollment = await addEnrollment(h, two.id, idiomas.id);
  await insertProof(h, two.id, idiomas.id, { enrollmentId: enrollment.id, status: "verificado", verifiedUntil: END_OF_FEB });
  const nextYear = await parent("Carla Renovada");
  await insertProof(h, nextYear.id, horizonte.id, { status: "verificado", verifiedUntil: `${YEAR + 1}-02-29` });
  const alreadySent = await parent("Davi Enviou");
  await insertProof(h, alreadySent.id, horizonte.id, { status: "verificado", verifiedUntil: END_OF_FEB });
  await insertProof(h, alreadySent.id, horizonte.id); // the new year's proof, waiting: the verified one is replaced
  const lapsed = await parent("Eva Vencida");
  await insertProof(h, lapsed.id, horizonte.id, { status: "verificado", verifiedUntil: `${YEAR - 1}-02-28` });
  const pending = await parent("Fábio Pendente");
  await insertProof(h, pending.id, horizonte.id);
  return { horizonte, idiomas, verifiedMain, two, others: [nextYear, alreadySent, lapsed, pending] };
}

describe("January: the new school year's proof", () => {
  it("outside January the job does nothing; in January each parent with a verification ending this February gets one e-mail, once", async () => {
    const f = await families();
    const all = [f.verifiedMain, f.two, ...f.others].map((p) => p.email);
    const start = h.clock.now();
    try {
      h.clock.set(at(`${YEAR - 1}-12-31`));
      expect(await sendRenewalRequests(h.deps)).toBe(0);
      h.clock.set(at(`${YEAR}-02-01`));
      expect(await sendRenewalRequests(h.deps)).toBe(0);
      expect(await renewalMails(all)).toEqual([]);

      h.clock.set(at(`${YEAR}-01-10`));
      expect(await sendRenewalRequests(h.deps)).toBe(2);
      const mails = await renewalMails(all);
      expect(mails.map((m) => m.to).sort()).toEqual([f.verifiedMain.email, f.two.email].sort());
      const toTwo = mails.find((m) => m.to === f.two.email)!;
      expect(toTwo.subject).toContain(`comprovante de matrícula de ${YEAR}`);
      expect(toTwo.text).toContain(f.horizonte.name);
      expect(toTwo.text).toContain(f.idiomas.name);
      expect(toTwo.text).toContain("28/02/2031");
      // A second pass (the next hour, another server) sends nothing more.
      expect(await sendRenewalRequests(h.deps)).toBe(0);
      expect(await renewalMails(all)).toHaveLength(2);
    } finally {
      h.clock.set(start);
    }
  });

  it.runIf(onRealPostgres())("several servers running the job at once send each e-mail once", async () => {
    const parents = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const school = await createSchool(h);
        const p = await eligibleParent(h, { schoolId: school.id });
        await insertProof(h, p.id, school.id, { status: "verificado", verifiedUntil: END_OF_FEB });
        return p;
      }),
    );
    const start = h.clock.now();
    try {
      h.clock.set(at(`${YEAR}-01-20`));
      const counts = await Promise.all(Array.from({ length: 5 }, () => sendRenewalRequests(h.deps)));
      // Whatever another pass skipped while it was locked, a later pass picks up.
      counts.push(await sendRenewalRequests(h.deps));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
      const mails = await renewalMails(parents.map((p) => p.email));
      expect(mails).toHaveLength(30);
      expect(new Set(mails.map((m) => m.to)).size).toBe(30);
    } finally {
      h.clock.set(start);
    }
  });

  it("the server runs the job when it starts (and then every hour)", async () => {
    const school = await createSchool(h);
    const p = await eligibleParent(h, { schoolId: school.id });
    await insertProof(h, p.id, school.id, { status: "verificado", verifiedUntil: END_OF_FEB });
    const start = h.clock.now();
    h.clock.set(at(`${YEAR}-01-25`));
    const server = await h.startServer();
    try {
      for (let i = 0; i < 200 && (await renewalMails([p.email])).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await renewalMails([p.email])).toHaveLength(1);
    } finally {
      await server.close();
      h.clock.set(start);
    }
  });
});
