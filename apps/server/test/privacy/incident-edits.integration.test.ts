import { schema } from "@elo/db";
import { accessLogMessages as m } from "@elo/shared";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServerBundle } from "../support/child-server";
import { eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin, createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";

/** Issue 27: a recorded incident is edited (status, art. 48 § 1 fields, communication dates) with its history appended (decision 195). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const run = promisify(execFile);
const revisions = (id: string) => h.db.select().from(schema.incidentRevisions).where(eq(schema.incidentRevisions.incidentId, id)).orderBy(schema.incidentRevisions.changedAt);

async function recorded(adminId: string) {
  const admin = await h.caller(adminId);
  h.clock.set(new Date("2031-06-01T12:00:00Z"));
  const { id } = await admin.admin.incidents.create({
    title: "Conta de escola usada por terceiros",
    detectedAt: new Date("2031-06-01T10:00:00Z"),
    windowFrom: new Date("2031-05-30T03:00:00Z"),
    windowTo: new Date("2031-06-01T03:00:00Z"),
    nature: "Comprovantes de matrícula",
    accountsAffected: 4,
    childrenAffected: 5,
    measures: "Sessões da conta encerradas.",
  });
  return { admin, id };
}

describe("editing a recorded incident", () => {
  it("changes only what is given, appends one revision per edit with before and after, keeps the earlier ones; bad input is refused in Portuguese", async () => {
    const adminUser = await createAdmin(h);
    const { admin, id } = await recorded(adminUser.id);
    await expect(admin.admin.incidents.update({ id, changes: {} })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.incidentNothingChanged) });
    await expect(admin.admin.incidents.update({ id, changes: { status: "resolvido" as never } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.incidentStatusInvalid) });
    await expect(admin.admin.incidents.update({ id, changes: { measures: "   " } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.incidentFieldEmpty) });
    await expect(admin.admin.incidents.update({ id, changes: { childrenAffected: -3 } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.incidentCountInvalid(10_000_000)) });
    await expect(admin.admin.incidents.update({ id: "00000000-0000-4000-8000-000000000000", changes: { status: "contido" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await revisions(id)).toEqual([]);

    h.clock.set(new Date("2031-06-02T12:00:00Z"));
    expect(await admin.admin.incidents.update({ id, changes: { status: "contido", measures: "Senha redefinida; escola avisada.", risks: "Exposição do nome do aluno." } })).toEqual({ id, changed: 3 });
    h.clock.set(new Date("2031-06-04T12:00:00Z"));
    const anpd = new Date("2031-06-04T11:00:00Z");
    await admin.admin.incidents.update({ id, changes: { status: "encerrado", anpdCommunicatedAt: anpd, holdersCommunicatedAt: anpd, delayReason: "Nenhuma demora." } });
    // The same values again: nothing changes, nothing is appended.
    expect(await admin.admin.incidents.update({ id, changes: { status: "encerrado" } })).toEqual({ id, changed: 0 });

    const history = await revisions(id);
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ via: "admin", changedBy: adminUser.id, changedByEmail: adminUser.email, changes: { status: { from: "aberto", to: "contido" }, measures: { from: "Sessões da conta encerradas.", to: "Senha redefinida; escola avisada." }, risks: { from: null, to: "Exposição do nome do aluno." } } });
    expect(history[1]!.changes).toMatchObject({ status: { from: "contido", to: "encerrado" }, anpdCommunicatedAt: { from: null, to: anpd.toISOString() } });
    const [row] = (await admin.admin.incidents.list()).filter((i) => i.id === id);
    expect(row).toMatchObject({ status: "encerrado", measures: "Senha redefinida; escola avisada.", delayReason: "Nenhuma demora.", anpdCommunicatedAt: anpd, holdersCommunicatedAt: anpd });
    expect(row!.history.map((r) => Object.keys(r.changes).sort())).toEqual([["anpdCommunicatedAt", "delayReason", "holdersCommunicatedAt", "status"], ["measures", "risks", "status"]]);
    // The history is append-only: no rewriting it, even with the owner's role.
    await expect(h.db.update(schema.incidentRevisions).set({ changedByEmail: "outro@x.com" }).where(eq(schema.incidentRevisions.incidentId, id))).rejects.toThrow();
    await expect(h.db.delete(schema.incidentRevisions).where(eq(schema.incidentRevisions.incidentId, id))).rejects.toThrow();
    // Not an administrator: refused.
    await expect((await h.caller((await createUser(h)).id)).admin.incidents.update({ id, changes: { status: "aberto" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe.skipIf(!onRealPostgres())("the built dist/incident.js on plain node (as in the Docker image)", () => {
  let built: ReturnType<typeof buildServerBundle>;
  beforeAll(() => {
    built = buildServerBundle({ name: "incident", source: "src/cli/incident.ts" });
  }, 120_000);
  afterAll(() => built?.remove());
  const env = () => ({ ...process.env, DATABASE_URL: (h.dbHandle as { url: string }).url, NODE_ENV: "test", LOG_LEVEL: "silent" });
  const cli = (args: string[]) => run(process.execPath, [built.bundle, ...args], { env: env() });

  it("reports a window, updates an incident with the history naming the administrator, and refuses bad input with exit code 2", async () => {
    const school = await createSchool(h, { name: `Colégio Bundle ${Date.now()}` });
    const staff = await createStaff(h, school.id);
    const parent = await eligibleParent(h, { schoolId: school.id });
    const proof = await insertProof(h, parent.id, school.id, { studentName: "Lia" });
    h.clock.set(new Date("2032-02-10T15:00:00Z"));
    await (await h.caller(staff.id)).school.verifications.open({ id: proof.id });

    const report = await cli(["--from", "2032-02-10", "--to", "2032-02-10", "--school", school.name, "--json"]);
    expect(JSON.parse(report.stdout)).toMatchObject({ accesses: 1, accountsAffected: 1, childrenAffected: 1, accounts: [{ email: parent.email }] });
    expect((await cli(["--from", "2032-02-10", "--to", "2032-02-10"])).stdout).toContain("VI - medidas adotadas");

    const adminUser = await createAdmin(h);
    const { id } = await recorded(adminUser.id);
    const done = await cli(["update", "--id", id, "--by", adminUser.email, "--status", "contido", "--anpd-communicated", "2031-06-03"]);
    expect(done.stdout).toContain("2 campo(s) alterado(s)");
    const history = await revisions(id);
    expect(history).toEqual([expect.objectContaining({ via: "cli", changedBy: adminUser.id, changedByEmail: adminUser.email, changes: { status: { from: "aberto", to: "contido" }, anpdCommunicatedAt: { from: null, to: "2031-06-03T03:00:00.000Z" } } })]);

    const parentUser = await createUser(h);
    await expect(cli(["update", "--id", id, "--by", parentUser.email, "--status", "encerrado"])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("não é o e-mail de um administrador") });
    await expect(cli(["update", "--id", id, "--by", adminUser.email, "--status", "resolvido"])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(m.incidentStatusInvalid) });
    await expect(cli(["update", "--id", id, "--by", adminUser.email])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(m.incidentNothingChanged) });
    await expect(cli(["--from", "ontem"])).rejects.toMatchObject({ code: 2 });
    expect(await revisions(id)).toHaveLength(1);
  }, 120_000);
});
