import { schema } from "@elo/db";
import { accessLogMessages as m } from "@elo/shared";
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { incidentReport, incidentText } from "../../src/access-log/incident";
import { purgeAccessLog } from "../../src/access-log/retention";
import { seedDemoWorld } from "../../src/demo/demo-world";
import { createDiscount, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin, createUser } from "../support/factories/users";
import { insertVoucher } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";

/** Issue 27, part 6: the incident kit (the command's report and the 5-year register). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  // The demo world first (it seeds only an empty database): the command runs against it.
  await seedDemoWorld(h.deps);
});
afterAll(() => h.close());

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const run = promisify(execFile);

describe("npm run incident", () => {
  it("lists the accounts opened or served in the window, by school, staff member and file, counts the children, and prints art. 48 § 1's fields", async () => {
    const horizonte = await createSchool(h, { name: `Colégio Incidente ${Date.now()}` });
    const staff = await createStaff(h, horizonte.id);
    const siblings = await eligibleParent(h, { schoolId: horizonte.id });
    const single = await eligibleParent(h, { schoolId: horizonte.id });
    const outside = await eligibleParent(h, { schoolId: horizonte.id });
    const p1 = await insertProof(h, siblings.id, horizonte.id, { studentName: "Ana" });
    const other = await createSchool(h);
    const enrollment = (await h.db.insert(schema.enrollments).values({ userId: siblings.id, schoolId: horizonte.id, institutionName: horizonte.name, studentName: "Bruno" }).returning())[0]!;
    const p2 = await insertProof(h, siblings.id, horizonte.id, { studentName: "Bruno", enrollmentId: enrollment.id });
    const p3 = await insertProof(h, single.id, horizonte.id, { studentName: "Caio" });
    // The voucher's child is the profile's student: the same Caio, counted once.
    await h.db.update(schema.profiles).set({ studentName: "Caio" }).where(eq(schema.profiles.userId, single.id));
    const p4 = await insertProof(h, outside.id, horizonte.id, { studentName: "Davi" });
    const t0 = new Date("2031-05-10T12:00:00Z");
    h.clock.set(t0);
    const api = await h.caller(staff.id);
    await api.school.verifications.open({ id: p1.id });
    await api.school.verifications.open({ id: p2.id });
    await api.school.verifications.open({ id: p3.id });
    const desk = await createStaff(h, other.id);
    const voucher = await insertVoucher(h, { id: (await createDiscount(h, other.id)).id, schoolId: other.id }, single.id);
    await (await h.caller(desk.id)).school.vouchers.lookup({ code: voucher.voucherCode });
    h.clock.set(new Date("2031-05-20T12:00:00Z"));
    await api.school.verifications.open({ id: p4.id });

    const window = { from: new Date("2031-05-10T00:00:00-03:00"), to: new Date("2031-05-11T00:00:00-03:00") };
    const all = await incidentReport(h.db, window);
    expect(all).toMatchObject({ accesses: 4, accountsAffected: 2, childrenAffected: 3 });
    expect(all.accounts.map((a) => a.email).sort()).toEqual([siblings.email, single.email].sort());
    expect(all.bySchool.find((s) => s.label === horizonte.name)).toMatchObject({ accesses: 3, accounts: 2 });
    expect(all.byStaff).toHaveLength(2);
    expect(all.byFile).toHaveLength(4);
    const one = await incidentReport(h.db, { ...window, school: horizonte.name.toLowerCase() });
    expect(one).toMatchObject({ accesses: 3, accountsAffected: 2 });
    expect(await incidentReport(h.db, { ...window, school: horizonte.id })).toMatchObject({ accesses: 3 });
    const text = incidentText(all);
    expect(text).toContain("Contas cujos dados foram abertos ou servidos: 2");
    expect(text).toContain("Crianças envolvidas (alunos distintos por conta): 3");
    for (const field of ["I - natureza", "II - titulares", "III - medidas técnicas", "IV - riscos", "V - motivos da demora", "VI - medidas adotadas"]) expect(text).toContain(field);
  });

  it.skipIf(!onRealPostgres())("runs as a command against the demo world", async () => {
    const env = { ...process.env, DATABASE_URL: (h.dbHandle as { url: string }).url, NODE_ENV: "test", LOG_LEVEL: "silent", DEMO: "0" };
    const { stdout } = await run(path.join(root, "node_modules/.bin/tsx"), ["apps/server/src/cli/incident.ts", "--from", "2031-05-10", "--to", "2031-05-10"], { cwd: root, env });
    expect(stdout).toContain("Relatório de incidente");
    expect(stdout).toMatch(/Contas cujos dados foram abertos ou servidos: \d+/);
    expect(stdout).toContain("VI - medidas adotadas");
    const json = await run(path.join(root, "node_modules/.bin/tsx"), ["apps/server/src/cli/incident.ts", "--from", "2020-01-01", "--to", "2020-01-02", "--school", "Colégio Horizonte", "--json"], { cwd: root, env });
    expect(JSON.parse(json.stdout)).toMatchObject({ accesses: 0, accountsAffected: 0 });
    await expect(run(path.join(root, "node_modules/.bin/tsx"), ["apps/server/src/cli/incident.ts", "--from", "ontem"], { cwd: root, env })).rejects.toMatchObject({ code: 2 });
  });
});

describe("the incidents register", () => {
  it("an administrator records and lists incidents; bad input is refused in Portuguese; others are refused; kept 5 years", async () => {
    const admin = await h.caller((await createAdmin(h)).id);
    const input = {
      title: "Acesso indevido por conta de escola",
      detectedAt: new Date("2031-05-11T10:00:00Z"),
      windowFrom: new Date("2031-05-10T03:00:00Z"),
      windowTo: new Date("2031-05-11T03:00:00Z"),
      nature: "Comprovantes de matrícula",
      accountsAffected: 2,
      childrenAffected: 3,
      measures: "Senha da conta redefinida; escola avisada.",
    };
    await expect(admin.admin.incidents.create({ ...input, windowTo: input.windowFrom })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.incidentWindowInvalid) });
    await expect(admin.admin.incidents.create({ ...input, measures: "" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.incidentMeasuresRequired) });
    for (const count of [-1, 2.5, 10_000_001, "3"]) {
      for (const key of ["accountsAffected", "childrenAffected"]) {
        await expect(admin.admin.incidents.create({ ...input, [key]: count } as never), `${key} ${count}`).rejects.toMatchObject({
          code: "BAD_REQUEST",
          message: expect.stringContaining(m.incidentCountInvalid(10_000_000)),
        });
      }
    }
    h.clock.set(new Date("2031-05-12T12:00:00Z"));
    const { id } = await admin.admin.incidents.create(input);
    expect((await admin.admin.incidents.list()).find((i) => i.id === id)).toMatchObject({ title: input.title, accountsAffected: 2, communicatedAt: null });
    const parent = await h.caller((await createUser(h)).id);
    await expect(parent.admin.incidents.list()).rejects.toMatchObject({ code: "FORBIDDEN" });

    h.clock.set(new Date("2036-05-11T12:00:00Z"));
    await purgeAccessLog(h.deps);
    expect(await h.db.select().from(schema.incidents).where(eq(schema.incidents.id, id))).toHaveLength(1);
    h.clock.set(new Date("2036-05-13T12:00:00Z"));
    await purgeAccessLog(h.deps);
    expect(await h.db.select().from(schema.incidents).where(eq(schema.incidents.id, id))).toEqual([]);
  });
});
