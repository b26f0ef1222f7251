import { schema } from "@elo/db";
import { accessLogMessages as m } from "@elo/shared";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { purgeAccessLog } from "../../src/access-log/retention";
import { accountHash } from "../../src/routers/privacy/erase-account";
import { addEnrollment, createDiscount, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin, DEFAULT_PASSWORD } from "../support/factories/users";
import { insertVoucher } from "../support/factories/vouchers";
import { countStatements } from "../support/statements";
import { withServer, type Harness } from "../support/harness";

/**
 * Issue 27's remainder: listings that show parents are logged (decision 192), a withdrawn proof
 * sends the discard notice (193), an erased account's log stays anonymised (194).
 */
let h: Harness;
withServer((s) => ({ h } = s));

const suffix = () => Math.random().toString(36).slice(2, 8);
const listingRows = (holderIds: string[]) => h.db.select().from(schema.parentListingViews).where(inArray(schema.parentListingViews.holderId, holderIds));
const notices = (userId: string) => h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.userId, userId), eq(schema.emailOutbox.kind, "discard-copies")));

describe("the administrators' parents table (decision 192)", () => {
  it("is refused without a purpose (or support without its ticket) and logs nothing; with one, each parent shown gets ONE row of that listing, in one INSERT, seen in 'Quem viu'", async () => {
    const tag = `Listagem ${suffix()}`;
    const parents = [];
    for (let i = 0; i < 3; i++) {
      const p = await eligibleParent(h);
      await h.db.update(schema.profiles).set({ fullName: `${tag} Responsável ${i}` }).where(eq(schema.profiles.userId, p.id));
      parents.push(p);
    }
    const hidden = await eligibleParent(h);
    const adminUser = await createAdmin(h);
    await h.db.update(schema.profiles).set({ fullName: "Rafael Admin" }).where(eq(schema.profiles.userId, adminUser.id));
    const admin = await h.caller(adminUser.id);
    await expect(admin.admin.parents.list({ search: tag } as never)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.purposeRequired) });
    await expect(admin.admin.parents.list({ search: tag, purpose: "suporte" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.ticketRequired) });
    expect(await listingRows(parents.map((p) => p.id))).toEqual([]);

    h.clock.set(new Date("2026-04-02T13:30:00Z"));
    const page = await admin.admin.parents.list({ search: tag, purpose: "suporte", ticket: "CH-77", pageSize: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.total).toBe(3);
    const rows = await listingRows(parents.map((p) => p.id));
    expect(rows.map((r) => r.holderId).sort()).toEqual(page.items.map((i) => i.userId).sort());
    expect(new Set(rows.map((r) => r.listingId)).size).toBe(1);
    expect(rows[0]).toMatchObject({ listing: "admin_parents", viewerId: adminUser.id, viewerSchoolId: null, purpose: "suporte", ticket: "CH-77", viewerFirstName: "Rafael", viewerRole: m.roleAdmin });
    expect(await listingRows([hidden.id])).toEqual([]);

    const shown = page.items[0]!.userId;
    const log = await (await h.caller(shown)).privacy.accessLog();
    expect(log).toEqual([
      expect.objectContaining({ subject: "listing", when: "02/04/2026 às 10:30", organization: m.organizationAdmin, role: m.roleAdmin, firstName: "Rafael", action: m.actionAdminParentsList, purpose: "suporte com número do chamado CH-77" }),
    ]);
    expect((await (await h.caller(shown)).privacy.export()).whoSawMyData).toHaveLength(1);
    // The third parent was not on the page: nothing for them.
    const notShown = parents.find((p) => !page.items.some((i) => i.userId === p.id))!;
    expect(await (await h.caller(notShown.id)).privacy.accessLog()).toEqual([]);
    // Append-only like the other logs.
    await expect(h.db.update(schema.parentListingViews).set({ purpose: "ordem_judicial" }).where(eq(schema.parentListingViews.holderId, shown))).rejects.toThrow();
    await expect(h.db.delete(schema.parentListingViews).where(eq(schema.parentListingViews.holderId, shown))).rejects.toThrow();
  });

  it("costs the same statements for a page of 1 and a page of 3: one INSERT per listing, not one per parent", async () => {
    const tag = `Contagem ${suffix()}`;
    for (let i = 0; i < 3; i++) {
      const p = await eligibleParent(h);
      await h.db.update(schema.profiles).set({ fullName: `${tag} ${i}` }).where(eq(schema.profiles.userId, p.id));
    }
    const admin = await h.caller((await createAdmin(h)).id);
    const statementsFor = async (pageSize: number) => {
      const counter = countStatements(h.db);
      const page = await admin.admin.parents.list({ search: tag, purpose: "revisao_administrador", pageSize });
      counter.restore();
      expect(page.items).toHaveLength(pageSize);
      return counter.count();
    };
    expect(await statementsFor(3)).toBe(await statementsFor(1));
  });
});

describe("the desk's voucher list (decision 192)", () => {
  it("logs each voucher shown to its holder, in one INSERT; another school's list shows and logs none of them", async () => {
    const school = await createSchool(h, { name: `Escola Balcão ${suffix()}` });
    const desk = await createStaff(h, school.id);
    await h.db.update(schema.profiles).set({ fullName: "Beatriz Balcão" }).where(eq(schema.profiles.userId, desk.id));
    const benefit = await createDiscount(h, school.id, { className: `Turma ${suffix()}` });
    const holders = [await eligibleParent(h), await eligibleParent(h)];
    for (const p of holders) await insertVoucher(h, benefit, p.id);
    const other = await createStaff(h, (await createSchool(h)).id);
    expect(await (await h.caller(other.id)).school.vouchers.list({})).toEqual([]);
    expect(await h.db.select().from(schema.voucherDeskViews).where(inArray(schema.voucherDeskViews.holderId, holders.map((p) => p.id)))).toEqual([]);

    h.clock.set(new Date("2026-04-03T12:00:00Z"));
    const list = await (await h.caller(desk.id)).school.vouchers.list({});
    expect(list).toHaveLength(2);
    const rows = await h.db.select().from(schema.voucherDeskViews).where(inArray(schema.voucherDeskViews.holderId, holders.map((p) => p.id)));
    expect(rows.map((r) => r.action)).toEqual(["list", "list"]);
    expect(new Set(rows.map((r) => r.requestId)).size).toBe(1);
    const log = await (await h.caller(holders[0]!.id)).privacy.accessLog();
    expect(log).toEqual([expect.objectContaining({ subject: "voucher", organization: school.name, firstName: "Beatriz", action: m.actionDeskList, about: benefit.className, when: "03/04/2026 às 09:00" })]);

    // One INSERT per listing: 2 vouchers or 5, the same statements.
    const statementsOfList = async (size: number) => {
      const api = await h.caller(desk.id);
      const counter = countStatements(h.db);
      const shown = await api.school.vouchers.list({});
      counter.restore();
      expect(shown).toHaveLength(size);
      return counter.count();
    };
    const before = await statementsOfList(2);
    for (let i = 0; i < 3; i++) await insertVoucher(h, benefit, (await eligibleParent(h)).id);
    expect(await statementsOfList(5)).toBe(before);
  });
});

describe("a proof withdrawn by a change of school (decision 193)", () => {
  it("changing the main school sends each approved staff member of a school that opened it ONE discard notice, in the change's transaction", async () => {
    const school = await createSchool(h);
    const staff = [await createStaff(h, school.id), await createStaff(h, school.id)];
    const parent = await eligibleParent(h, { schoolId: school.id });
    const proof = await insertProof(h, parent.id, school.id);
    await (await h.caller(staff[0]!.id)).school.verifications.open({ id: proof.id });
    const elsewhere = await createSchool(h);
    const me = await h.caller(parent.id);
    await me.profile.saveMainSchool({ schoolId: elsewhere.id });
    expect((await h.db.select().from(schema.enrollmentProofs).where(eq(schema.enrollmentProofs.id, proof.id)))[0]!.replacedAt).not.toBeNull();
    for (const s of staff) expect(await notices(s.id)).toHaveLength(1);
    expect(await notices(parent.id)).toEqual([]);
    // Saving the same school again withdraws nothing more: no second notice.
    await me.profile.saveMainSchool({ schoolId: elsewhere.id });
    for (const s of staff) expect(await notices(s.id)).toHaveLength(1);
  });

  it("moving another enrollment to a new school does the same; a proof nobody opened sends nothing", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const parent = await eligibleParent(h);
    const enrollment = await addEnrollment(h, parent.id, school.id);
    const opened = await insertProof(h, parent.id, school.id, { enrollmentId: enrollment.id });
    await (await h.caller(staff.id)).school.verifications.open({ id: opened.id });
    await (await h.caller(parent.id)).profile.enrollments.saveSchool({ id: enrollment.id, schoolId: (await createSchool(h)).id });
    expect(await notices(staff.id)).toHaveLength(1);

    const quiet = await createSchool(h);
    const quietStaff = await createStaff(h, quiet.id);
    const second = await addEnrollment(h, parent.id, quiet.id);
    await insertProof(h, parent.id, quiet.id, { enrollmentId: second.id });
    await (await h.caller(parent.id)).profile.enrollments.saveSchool({ id: second.id, schoolId: (await createSchool(h)).id });
    expect(await notices(quietStaff.id)).toEqual([]);
  });
});

describe("an account deletion keeps the record of operations, anonymised (decision 194)", () => {
  it("moves others' accesses to the erased log under the id's hash, without the child's name, file or voucher code; the parent's own openings go; purged after the erasure plus 2 years", async () => {
    const school = await createSchool(h, { name: `Escola Apagada ${suffix()}` });
    const staff = await createStaff(h, school.id);
    const parent = await eligibleParent(h, { schoolId: school.id });
    const proof = await insertProof(h, parent.id, school.id, { studentName: "Criança Secreta" });
    const benefit = await createDiscount(h, school.id);
    const voucher = await insertVoucher(h, benefit, parent.id);
    h.clock.set(new Date("2026-05-01T12:00:00Z"));
    const desk = await h.caller(staff.id);
    await desk.school.verifications.open({ id: proof.id });
    await desk.school.vouchers.lookup({ code: voucher.voucherCode });
    await (await h.caller((await createAdmin(h)).id)).admin.parents.list({ search: parent.email, purpose: "revisao_administrador" });
    // The parent's own opening of the proof is no operation by someone else.
    await h.db.insert(schema.enrollmentProofViews).values({ proofId: proof.id, viewerId: parent.id, purpose: null });

    h.clock.set(new Date("2026-06-01T12:00:00Z"));
    await (await h.caller(parent.id)).privacy.deleteAccount({ password: DEFAULT_PASSWORD });
    const kept = await h.db.select().from(schema.erasedAccessLog).where(eq(schema.erasedAccessLog.accountHash, accountHash(parent.id)));
    expect(kept.map((r) => `${r.kind}:${r.action}`).sort()).toEqual(["listing:admin_parents", "proof:opening", "voucher:lookup"]);
    expect(kept.every((r) => r.erasedAt.toISOString() === "2026-06-01T12:00:00.000Z")).toBe(true);
    expect(kept.find((r) => r.kind === "proof")).toMatchObject({ viewerId: staff.id, viewerSchoolId: school.id, organizationName: school.name, purpose: "verificacao_matricula" });
    const text = JSON.stringify(kept);
    for (const secret of ["Criança Secreta", voucher.voucherCode, parent.email, parent.id, proof.id]) expect(text).not.toContain(secret);
    // The live logs hold nothing of the account any more.
    expect(await h.db.select().from(schema.voucherDeskViews).where(eq(schema.voucherDeskViews.holderId, parent.id))).toEqual([]);
    expect(await listingRows([parent.id])).toEqual([]);
    // Append-only.
    await expect(h.db.delete(schema.erasedAccessLog).where(eq(schema.erasedAccessLog.accountHash, accountHash(parent.id)))).rejects.toThrow();

    // Purge: kept while within the erasure plus 24 months; gone after.
    h.clock.set(new Date("2028-05-31T12:00:00Z"));
    await purgeAccessLog(h.deps);
    expect(await h.db.select().from(schema.erasedAccessLog).where(eq(schema.erasedAccessLog.accountHash, accountHash(parent.id)))).toHaveLength(3);
    h.clock.set(new Date("2028-06-02T12:00:00Z"));
    await purgeAccessLog(h.deps);
    expect(await h.db.select().from(schema.erasedAccessLog).where(eq(schema.erasedAccessLog.accountHash, accountHash(parent.id)))).toEqual([]);
  });
});
