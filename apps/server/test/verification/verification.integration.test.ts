import { schema } from "@elo/db";
import { verificationMessages as v } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { saoPauloDay } from "../../src/lib/calendar";
import { addEnrollment, eligibleParent } from "../support/factories/benefits";
import { pdfBytes, uploadForm } from "../support/factories/files";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createAdmin } from "../support/factories/users";
import { TEST_ORIGIN, withServer, type Harness, type TestServer } from "../support/harness";

/** Issue 21, part 2: every transition and permission of enrollment verification. */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const DAY = 24 * 60 * 60 * 1000;

async function upload(userId: string, fields: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/uploads/enrollment-proof`, {
    method: "POST",
    headers: { origin: TEST_ORIGIN, cookie: await sessionCookie(h, userId) },
    body: uploadForm(pdfBytes(), "comprovante.pdf", fields),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** A school with staff, a parent of it, and the parent's pending main proof. */
async function pendingProof() {
  const school = await createSchool(h, { name: `Colégio Horizonte ${Math.random().toString(36).slice(2, 7)}` });
  const staff = await createStaff(h, school.id);
  const parent = await eligibleParent(h, { schoolId: school.id });
  const proof = await insertProof(h, parent.id, school.id);
  return { school, staff, parent, proof };
}

const mailsTo = (email: string, kind: string) => h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, kind)));
const proofRow = async (id: string) => (await h.db.select().from(schema.enrollmentProofs).where(eq(schema.enrollmentProofs.id, id)))[0];

describe("a proof enters the queue of the school it names", () => {
  it("the main proof and an other enrollment's proof are 'enviado', each in its school's queue, with the declared class", async () => {
    const main = await createSchool(h);
    const other = await createSchool(h);
    const parent = await eligibleParent(h, { schoolId: main.id });
    const enrollment = await addEnrollment(h, parent.id, other.id);
    await upload(parent.id, { declaredClass: "5º ano B" });
    await upload(parent.id, { enrollmentId: enrollment.id });

    const mainStaff = await h.caller((await createStaff(h, main.id)).id);
    const otherStaff = await h.caller((await createStaff(h, other.id)).id);
    const [mainRow] = await mainStaff.school.verifications.list();
    expect(mainRow).toMatchObject({ main: true, parentName: "Responsável de Teste", studentName: "Aluno de Teste", declaredClass: "5º ano B", status: "enviado" });
    const otherRows = await otherStaff.school.verifications.list();
    expect(otherRows).toHaveLength(1);
    expect(otherRows[0]).toMatchObject({ main: false, status: "enviado" });

    const profile = (await (await h.caller(parent.id)).profile.get())!;
    expect(profile.verification).toMatchObject({ status: "enviado", decidedBy: null });
    expect(profile.enrollments[0]!.verification).toMatchObject({ status: "enviado" });
  });

  it("a new proof replaces the live one: the old leaves the queue, the new is pending", async () => {
    const { staff, parent, proof } = await pendingProof();
    await upload(parent.id);
    const rows = await (await h.caller(staff.id)).school.verifications.list();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(proof.id);
    expect((await proofRow(proof.id))!.replacedAt).not.toBeNull();
  });

  it("changing the main school withdraws the proof from the old school's queue; the old verification does not count for the new school", async () => {
    const { staff, parent, proof } = await pendingProof();
    const other = await createSchool(h);
    await (await h.caller(parent.id)).profile.saveMainSchool({ schoolId: other.id });
    expect(await (await h.caller(staff.id)).school.verifications.list()).toEqual([]);
    expect((await proofRow(proof.id))!.replacedAt).not.toBeNull();
    expect((await (await h.caller(parent.id)).profile.get())!.verification.status).toBe("none");
  });
});

describe("the school's staff decide", () => {
  it("'Confirmar': verified until the end of February of next year, the parent is told by e-mail and sees who and when", async () => {
    const { school, staff, parent, proof } = await pendingProof();
    const api = await h.caller(staff.id);
    const decided = await api.school.verifications.confirm({ id: proof.id });
    const year = Number(saoPauloDay(h.clock.now()).slice(0, 4)) + 1;
    expect(decided.verifiedUntil).toMatch(new RegExp(`^${year}-02-2[89]$`));
    expect(await proofRow(proof.id)).toMatchObject({ status: "verificado", decidedBy: staff.id, decidedByAdmin: false });
    const [mail] = await mailsTo(parent.email, "enrollment-decision");
    expect(mail!.subject).toContain(v.mailVerifiedSubject);
    expect(mail!.text).toContain(school.name);
    const profile = (await (await h.caller(parent.id)).profile.get())!;
    expect(profile.verification).toMatchObject({ status: "verificado", decidedBy: school.name, validUntil: decided.verifiedUntil });
    // Decided proofs stay in the list for 30 days, then leave it.
    expect((await api.school.verifications.list())[0]).toMatchObject({ id: proof.id, status: "verificado", decidedByName: "Usuário de Teste" });
    h.clock.advance(31 * DAY);
    try {
      expect(await api.school.verifications.list()).toEqual([]);
      await expect(api.school.verifications.open({ id: proof.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    } finally {
      h.clock.advance(-31 * DAY);
    }
  });

  it("'Recusar' needs a reason from the list ('outro' needs a text); the parent is told why and may send a new proof", async () => {
    const { staff, parent, proof } = await pendingProof();
    const api = await h.caller(staff.id);
    await expect(api.school.verifications.refuse({ id: proof.id, reason: "outro" } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.school.verifications.refuse({ id: proof.id, reason: "rasurado" } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await api.school.verifications.refuse({ id: proof.id, reason: "outro", note: "Falta o carimbo da escola" });
    expect(await proofRow(proof.id)).toMatchObject({ status: "recusado", refusalReason: "outro", refusalNote: "Falta o carimbo da escola", verifiedUntil: null });
    const [mail] = await mailsTo(parent.email, "enrollment-decision");
    expect(mail!.text).toContain("Falta o carimbo da escola");
    expect((await (await h.caller(parent.id)).profile.get())!.verification).toMatchObject({ status: "recusado", refusalReason: "outro" });

    await upload(parent.id);
    const pending = await api.school.verifications.list();
    expect(pending.map((r) => r.status)).toEqual(["enviado"]);
  });

  it("a decided proof cannot be decided again: 'já decidido', and nothing changes", async () => {
    const { staff, parent, proof } = await pendingProof();
    const api = await h.caller(staff.id);
    await api.school.verifications.confirm({ id: proof.id });
    await expect(api.school.verifications.refuse({ id: proof.id, reason: "ilegivel", note: null })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining(v.alreadyDecided) });
    expect((await proofRow(proof.id))!.status).toBe("verificado");
    expect(await mailsTo(parent.email, "enrollment-decision")).toHaveLength(1);
  });

  it("every opening is recorded (who, when) and is part of the parent's LGPD export", async () => {
    const { school, staff, parent, proof } = await pendingProof();
    await h.deps.storage.put("enrollment_proofs", proof.fileKey, pdfBytes(), "application/pdf");
    const opened = await (await h.caller(staff.id)).school.verifications.open({ id: proof.id });
    const file = await fetch(new URL(opened.url, server.url));
    expect(file.status).toBe(200);
    const views = await h.db.select().from(schema.enrollmentProofViews).where(eq(schema.enrollmentProofViews.proofId, proof.id));
    expect(views).toMatchObject([{ viewerId: staff.id, viewerSchoolId: school.id }]);
    const exported = await (await h.caller(parent.id)).privacy.export();
    expect(exported.enrollmentProofs).toMatchObject([{ id: proof.id, status: "enviado", schoolName: school.name }]);
    expect(exported.enrollmentProofOpenings).toMatchObject([{ proofId: proof.id, viewerName: "Usuário de Teste", viewerSchool: school.name, byAdministrator: false }]);
  });
});

describe("who may not", () => {
  it("staff of another school neither see, open nor decide the proof", async () => {
    const { proof } = await pendingProof();
    const elsewhere = await createSchool(h);
    const api = await h.caller((await createStaff(h, elsewhere.id)).id);
    expect(await api.school.verifications.list()).toEqual([]);
    await expect(api.school.verifications.open({ id: proof.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.school.verifications.confirm({ id: proof.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.school.verifications.refuse({ id: proof.id, reason: "ilegivel", note: null })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await h.db.select().from(schema.enrollmentProofViews).where(eq(schema.enrollmentProofViews.proofId, proof.id))).toEqual([]);
    expect((await proofRow(proof.id))!.status).toBe("enviado");
  });

  it("a parent cannot verify themself (staff procedures refuse parents), pending staff cannot either", async () => {
    const { school, parent, proof } = await pendingProof();
    await expect((await h.caller(parent.id)).school.verifications.confirm({ id: proof.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await h.caller(parent.id)).admin.verifications.confirm({ id: proof.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const pending = await createStaff(h, school.id, "pending");
    await expect((await h.caller(pending.id)).school.verifications.confirm({ id: proof.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await proofRow(proof.id))!.status).toBe("enviado");
  });

  it("an administrator's own proof cannot be decided by that administrator", async () => {
    const school = await createSchool(h);
    const admin = await createAdmin(h, { profile: { schoolId: school.id } });
    const proof = await insertProof(h, admin.id, school.id);
    await expect((await h.caller(admin.id)).admin.verifications.confirm({ id: proof.id })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(v.ownProof) });
    expect((await proofRow(proof.id))!.status).toBe("enviado");
  });
});

describe("the administrator, on /admin-pais", () => {
  it("sees the pending proofs of schools without staff (all schools on request) and decides them", async () => {
    const unstaffed = await createSchool(h);
    const parent = await eligibleParent(h, { schoolId: unstaffed.id });
    const proof = await insertProof(h, parent.id, unstaffed.id);
    const staffed = await pendingProof();
    const admin = await h.caller((await createAdmin(h)).id);
    const queue = await admin.admin.verifications.list();
    expect(queue.map((r) => r.id)).toContain(proof.id);
    expect(queue.map((r) => r.id)).not.toContain(staffed.proof.id);
    expect((await admin.admin.verifications.list({ scope: "all" })).map((r) => r.id)).toContain(staffed.proof.id);

    await admin.admin.verifications.open({ id: proof.id, purpose: "revisao_administrador" });
    await admin.admin.verifications.confirm({ id: proof.id });
    expect(await proofRow(proof.id)).toMatchObject({ status: "verificado", decidedByAdmin: true });
    expect((await (await h.caller(parent.id)).profile.get())!.verification).toMatchObject({ status: "verificado", decidedBy: v.platformTeam });
    const exported = await (await h.caller(parent.id)).privacy.export();
    expect(exported.enrollmentProofOpenings).toMatchObject([{ proofId: proof.id, byAdministrator: true, viewerSchool: null }]);
    expect((await admin.admin.verifications.list()).map((r) => r.id)).not.toContain(proof.id);
  });
});
