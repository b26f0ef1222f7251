import { schema } from "@elo/db";
import { accessLogMessages as m } from "@elo/shared";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiToken } from "../support/factories/apiTokens";
import { addEnrollment, createDiscount, eligibleParent } from "../support/factories/benefits";
import { pdfBytes, uploadForm } from "../support/factories/files";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createAdmin, createUser, DEFAULT_PASSWORD } from "../support/factories/users";
import { insertVoucher } from "../support/factories/vouchers";
import { trpcMutation } from "../support/http-client";
import { TEST_ORIGIN, withServer, type Harness, type TestServer } from "../support/harness";

/** Issue 27: who opened a child's data, with whom it was shared, the admin's purpose, the append-only log. */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const suffix = () => Math.random().toString(36).slice(2, 7);
const views = (proofId: string) => h.db.select().from(schema.enrollmentProofViews).where(eq(schema.enrollmentProofViews.proofId, proofId));
/** The database refused the statement with the append-only trigger's message. */
async function appendOnly(statement: Promise<unknown>) {
  const error = await statement.then(() => null, (e: unknown) => e as { message: string; cause?: { message?: string } });
  expect(error, "the statement should have failed").not.toBeNull();
  expect(`${error!.message} ${error!.cause?.message ?? ""}`).toMatch(/append-only/);
}
const mailsTo = (email: string, kind: string) => h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, kind)));

/** Colégio Horizonte with a staff member named Carla, a parent of it with Tomás's pending proof. */
async function world() {
  const school = await createSchool(h, { name: `Colégio Horizonte ${suffix()}` });
  const staff = await createStaff(h, school.id);
  await h.db.update(schema.profiles).set({ fullName: "Carla Mendes Souza" }).where(eq(schema.profiles.userId, staff.id));
  const parent = await eligibleParent(h, { schoolId: school.id });
  const proof = await insertProof(h, parent.id, school.id, { studentName: "Tomás Lima" });
  return { school, staff, parent, proof };
}

describe("'Quem viu os dados do meu filho'", () => {
  it("lists the staff's opening and decision with organization, role, first name, purpose and São Paulo time; not the parent's own", async () => {
    const { school, staff, parent, proof } = await world();
    h.clock.set(new Date("2026-03-12T17:05:00Z"));
    const api = await h.caller(staff.id);
    await api.school.verifications.open({ id: proof.id });
    h.clock.set(new Date("2026-03-12T17:10:00Z"));
    await api.school.verifications.confirm({ id: proof.id });

    const log = await (await h.caller(parent.id)).privacy.accessLog();
    expect(log).toEqual([
      expect.objectContaining({ subject: "proof", when: "12/03/2026 às 14:10", organization: school.name, role: "Secretário(a)", firstName: "Carla", action: m.actionDecisionVerified, purpose: "verificação da matrícula", about: "Tomás Lima", viaApiToken: false }),
      expect.objectContaining({ subject: "proof", when: "12/03/2026 às 14:05", organization: school.name, role: "Secretário(a)", firstName: "Carla", action: m.actionOpening, purpose: "verificação da matrícula" }),
    ]);
    // A later rename of the school or of the staff member does not rewrite what was recorded.
    await h.db.update(schema.profiles).set({ fullName: "Outra Pessoa" }).where(eq(schema.profiles.userId, staff.id));
    expect((await (await h.caller(parent.id)).privacy.accessLog())[0]!.firstName).toBe("Carla");

    const exported = await (await h.caller(parent.id)).privacy.export();
    expect(exported.whoSawMyData).toHaveLength(2);
    expect(exported.sharedWith.schools).toEqual([expect.objectContaining({ kind: "proof", organization: school.name, opened: true, about: "Tomás Lima" })]);
    // Another parent sees none of it.
    const other = await eligibleParent(h, { schoolId: school.id });
    expect(await (await h.caller(other.id)).privacy.accessLog()).toEqual([]);
    // Staff are not parents: the procedures are refused.
    await expect(api.privacy.accessLog()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("an administrator's opening needs a purpose (a ticket for support), is listed as 'Administração Elo Escolar' and e-mails the parent in the same transaction", async () => {
    const { parent, proof } = await world();
    const adminUser = await createAdmin(h);
    await h.db.update(schema.profiles).set({ fullName: "Rafael Admin" }).where(eq(schema.profiles.userId, adminUser.id));
    const admin = await h.caller(adminUser.id);
    await expect(admin.admin.verifications.open({ id: proof.id } as never)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.purposeRequired) });
    await expect(admin.admin.verifications.open({ id: proof.id, purpose: "suporte" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.ticketRequired) });
    await expect(admin.admin.verifications.open({ id: proof.id, purpose: "curiosidade" } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await views(proof.id)).toEqual([]);
    expect(await mailsTo(parent.email, "proof-opened-by-admin")).toEqual([]);

    h.clock.set(new Date("2026-03-12T15:00:00Z"));
    await admin.admin.verifications.open({ id: proof.id, purpose: "revisao_administrador" });
    h.clock.advance(60_000);
    await admin.admin.verifications.open({ id: proof.id, purpose: "suporte", ticket: "CH-1234" });
    const log = await (await h.caller(parent.id)).privacy.accessLog();
    expect(log.map((r) => [r.organization, r.role, r.firstName, r.purpose])).toEqual([
      [m.organizationAdmin, m.roleAdmin, "Rafael", "suporte com número do chamado CH-1234"],
      [m.organizationAdmin, m.roleAdmin, "Rafael", "revisão pelo administrador"],
    ]);
    const mails = await mailsTo(parent.email, "proof-opened-by-admin");
    expect(mails).toHaveLength(2);
    expect(mails.map((x) => x.text).join("\n")).toContain("A administração do Elo Escolar abriu o comprovante de matrícula de Tomás Lima em 12/03/2026 para: revisão pelo administrador.");
    expect(mails[0]!.userId).toBe(parent.id);
  });

  it("an opening recorded before purposes existed shows as 'não informada'", async () => {
    const { parent, proof } = await world();
    const adminUser = await createAdmin(h);
    await h.db.insert(schema.enrollmentProofViews).values({ proofId: proof.id, viewerId: adminUser.id, viewerSchoolId: null });
    const [row] = await (await h.caller(parent.id)).privacy.accessLog();
    expect(row).toMatchObject({ organization: m.organizationAdmin, purpose: m.purposeNotStated });
  });

  it("an administrator opening their own proof is not listed for them (their own opening)", async () => {
    const school = await createSchool(h);
    const adminUser = await createAdmin(h, { profile: { schoolId: school.id } });
    const proof = await insertProof(h, adminUser.id, school.id);
    await (await h.caller(adminUser.id)).admin.verifications.open({ id: proof.id, purpose: "revisao_administrador" });
    expect(await views(proof.id)).toHaveLength(1);
    expect(await (await h.caller(adminUser.id)).privacy.accessLog()).toEqual([]);
  });

  it("a second school's staff are refused and add no row", async () => {
    const { parent, proof } = await world();
    const elsewhere = await createStaff(h, (await createSchool(h)).id);
    await expect((await h.caller(elsewhere.id)).school.verifications.open({ id: proof.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await h.caller(elsewhere.id)).school.verifications.confirm({ id: proof.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await views(proof.id)).toEqual([]);
    expect(await (await h.caller(parent.id)).privacy.accessLog()).toEqual([]);
  });

  it("an API token's call is marked as such and every HTTP access carries the request id", async () => {
    const { staff, parent, proof } = await world();
    const { token } = await createApiToken(h, staff.id);
    const res = await fetch(`${server.url}/trpc/school.verifications.open`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ json: { id: proof.id } }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = await trpcMutation(server, "school.verifications.confirm", { id: proof.id }, await sessionCookie(h, staff.id));
    expect(answer.status).toBe(200);
    const rows = await views(proof.id);
    expect(rows.map((r) => [r.action, r.viaApiToken])).toEqual(expect.arrayContaining([["opening", true], ["decision", false]]));
    for (const r of rows) expect(r.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(rows.map((r) => r.requestId)).size).toBe(2);
    const log = await (await h.caller(parent.id)).privacy.accessLog();
    expect(log.find((r) => r.action === m.actionOpening)).toMatchObject({ viaApiToken: true });
  });
});

describe("'Com quem seus dados foram compartilhados'", () => {
  it("a claim adds its institution; the desk's lookups are listed; the row stays after the voucher ends, with its dates; operators come from the configuration", async () => {
    const { parent } = await world();
    const offering = await createSchool(h, { name: `Escola de Idiomas ${suffix()}` });
    const desk = await createStaff(h, offering.id);
    const benefit = await createDiscount(h, offering.id, { className: "Inglês Kids" });
    const voucher = await insertVoucher(h, { id: benefit.id, schoolId: offering.id }, parent.id);
    const before = await (await h.caller(parent.id)).privacy.sharedWith();
    expect(before.schools.find((s) => s.kind === "voucher")).toMatchObject({ organization: offering.name, opened: false, until: null });

    await (await h.caller(desk.id)).school.vouchers.lookup({ code: voucher.voucherCode });
    await (await h.caller(desk.id)).school.vouchers.confirm({ code: voucher.voucherCode });
    // Another school's desk is refused and adds nothing.
    const elsewhere = await createStaff(h, (await createSchool(h)).id);
    await expect((await h.caller(elsewhere.id)).school.vouchers.lookup({ code: voucher.voucherCode })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const log = await (await h.caller(parent.id)).privacy.accessLog();
    const deskRows = log.filter((r) => r.subject === "voucher");
    expect(deskRows).toHaveLength(2);
    expect(deskRows[0]).toMatchObject({ organization: offering.name, action: m.actionDeskLookup, about: benefit.className, purpose: null });

    const shared = await (await h.caller(parent.id)).privacy.sharedWith();
    const row = shared.schools.find((s) => s.kind === "voucher")!;
    expect(row).toMatchObject({ organization: offering.name, opened: true, what: m.voucherSaw });
    expect(row.about).toContain(benefit.className);
    expect(row.until).not.toBeNull();
    // The proof's school never opened or decided it: it received nothing, so it is not listed.
    expect(shared.schools.some((s) => s.kind === "proof")).toBe(false);
    expect(shared.operators.map((o) => o.kind)).toEqual(["email", "storage", "hosting"]);
    expect(shared.operators[1]!.provider).toBe(m.operatorStorageDisk);
    expect(shared.operators[0]!.provider).toBe(m.operatorMailLog);
  });

  it("an institution user is refused (parents only)", async () => {
    const staff = await createUser(h, { profileType: "institution" });
    await expect((await h.caller(staff.id)).privacy.sharedWith()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("deletion and correction reach the schools that opened the proof (art. 18 § 6)", () => {
  const notices = (emails: string[]) => h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.kind, "discard-copies"), inArray(schema.emailOutbox.to, emails)));

  async function openedByTwoSchools() {
    const { school, staff, parent, proof } = await world();
    const colleague = await createStaff(h, school.id);
    const other = await createSchool(h, { name: `Escola Outra ${suffix()}` });
    const otherStaff = await createStaff(h, other.id);
    const enrollment = await addEnrollment(h, parent.id, other.id);
    const otherProof = await insertProof(h, parent.id, other.id, { enrollmentId: enrollment.id });
    await (await h.caller(staff.id)).school.verifications.open({ id: proof.id });
    await (await h.caller(staff.id)).school.verifications.open({ id: proof.id });
    await (await h.caller(otherStaff.id)).school.verifications.open({ id: otherProof.id });
    // A school that never opened anything, and an administrator's opening: no notice for them.
    const bystander = await createStaff(h, (await createSchool(h)).id);
    await (await h.caller((await createAdmin(h)).id)).admin.verifications.open({ id: proof.id, purpose: "revisao_administrador" });
    return { staff, colleague, otherStaff, bystander, parent, proof, recipients: [staff.email, colleague.email, otherStaff.email, bystander.email] };
  }

  it("a deleted account: one notice per staff member of each school that opened a proof, naming no child and linking nothing", async () => {
    const w = await openedByTwoSchools();
    await (await h.caller(w.parent.id)).privacy.deleteAccount({ password: DEFAULT_PASSWORD });
    const sent = await notices(w.recipients);
    expect(sent.map((n) => n.to).sort()).toEqual([w.staff.email, w.colleague.email, w.otherStaff.email].sort());
    for (const n of sent) {
      expect(n.userId).not.toBe(w.parent.id);
      expect(n.aboutUserId).toBeNull();
      expect(`${n.subject} ${n.text} ${n.html}`).not.toMatch(/Tomás|Aluno de Teste|Responsável de Teste|https?:\/\/[^"]*\/(meus-dados|privacidade)/);
      expect(n.text).toContain(m.discardText);
      // The only address is the layout's home link: nothing points at the parent, the child or a file.
      const urls = `${n.text} ${n.html}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
      expect(urls.filter((u) => u.replace(/\/$/, "") !== TEST_ORIGIN)).toEqual([]);
    }
  });

  it("a replaced proof: the staff of the school that opened it get one notice each; the other school none", async () => {
    const w = await openedByTwoSchools();
    const res = await fetch(`${server.url}/api/uploads/enrollment-proof`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, cookie: await sessionCookie(h, w.parent.id) },
      body: uploadForm(pdfBytes(), "comprovante.pdf"),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await notices(w.recipients)).map((n) => n.to).sort()).toEqual([w.staff.email, w.colleague.email].sort());
  });
});

describe("the access log is append-only", () => {
  it("a school merge re-points the log's school key; the recorded name stays", async () => {
    const { school, staff, parent, proof } = await world();
    await (await h.caller(staff.id)).school.verifications.open({ id: proof.id });
    const target = await createSchool(h, { name: `Colégio Destino ${suffix()}` });
    const voucher = await insertVoucher(h, { id: (await createDiscount(h, school.id)).id, schoolId: school.id }, parent.id);
    await (await h.caller(staff.id)).school.vouchers.lookup({ code: voucher.voucherCode });
    await (await h.caller((await createAdmin(h)).id)).admin.schools.merge({ sourceId: school.id, targetId: target.id });
    expect((await views(proof.id))[0]).toMatchObject({ viewerSchoolId: target.id, organizationName: school.name });
    expect((await (await h.caller(parent.id)).privacy.accessLog()).map((r) => r.organization)).toEqual([school.name, school.name]);
  });


  it("an UPDATE or DELETE by the application fails; the purge flag and an account deletion's cascade pass", async () => {
    const { staff, parent, proof } = await world();
    await (await h.caller(staff.id)).school.verifications.open({ id: proof.id });
    await appendOnly(h.db.execute(sql`update enrollment_proof_views set viewed_at = now() - interval '1 day' where proof_id = ${proof.id}`));
    await appendOnly(h.db.execute(sql`update enrollment_proof_views set purpose = 'ordem_judicial' where proof_id = ${proof.id}`));
    await appendOnly(h.db.execute(sql`delete from enrollment_proof_views where proof_id = ${proof.id}`));
    await appendOnly(h.db.execute(sql`truncate voucher_desk_views`));
    expect(await views(proof.id)).toHaveLength(1);
    // A viewer's account deleted: the key becomes null by the foreign key; the recorded name stays.
    await h.db.delete(schema.users).where(eq(schema.users.id, staff.id));
    expect((await views(proof.id))[0]).toMatchObject({ viewerId: null, viewerFirstName: "Carla" });
    // The purge's flag, in its own transaction.
    await h.db.transaction(async (tx) => {
      await tx.execute(sql`set local elo.purge = 'on'`);
      await tx.execute(sql`delete from enrollment_proof_views where proof_id = ${proof.id}`);
    });
    expect(await views(proof.id)).toEqual([]);
    // And the flag does not outlive its transaction.
    const { staff: s2, proof: p2 } = await world();
    await (await h.caller(s2.id)).school.verifications.open({ id: p2.id });
    await appendOnly(h.db.execute(sql`delete from enrollment_proof_views where proof_id = ${p2.id}`));
    void parent;
  });
});
