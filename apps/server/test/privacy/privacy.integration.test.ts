import { schema, type Database } from "@elo/db";
import { privacyMessages, PRODUCT_NAME } from "@elo/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, validateSessionToken } from "../../src/auth/session";
import { accountHash } from "../../src/routers/privacy/erase-account";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { createUserEverywhere } from "../support/factories/privacy";
import { createSchool, createStaff } from "../support/factories/schools";
import { createUser } from "../support/factories/users";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** Every "table.column" of the public schema whose row mentions `value` (case-insensitive). */
async function rowsMentioning(db: Database, value: string): Promise<string[]> {
  const tables = await db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like '__drizzle%'`,
  );
  const hits: string[] = [];
  const rows = Array.isArray(tables) ? tables : (tables as unknown as { rows: { table_name: string }[] }).rows;
  for (const { table_name } of rows) {
    const found = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table_name)} t where row_to_json(t)::text ilike ${`%${value}%`}`);
    const n = (Array.isArray(found) ? found : (found as unknown as { rows: { n: number }[] }).rows)[0]?.n ?? 0;
    if (n > 0) hits.push(`${table_name} (${n})`);
  }
  return hits;
}

describe("privacy.export", () => {
  it("contains each personal field of the caller and nothing of another user", async () => {
    const me = await createUserEverywhere(h, { storage: h.deps.storage });
    const other = await createUserEverywhere(h, { storage: h.deps.storage, cpf: "11144477735" });
    const data = await (await h.caller(me.id)).privacy.export();
    const text = JSON.stringify(data);

    expect(data.product).toBe(PRODUCT_NAME);
    expect(data.account).toMatchObject({ id: me.id, email: me.email });
    expect(text).not.toMatch(/password|argon2|tokenHash|token_hash/i);
    expect(data.profile).toMatchObject({
      fullName: me.fullName, studentName: me.studentName, studentCpf: me.cpf, phone: "11991234567", relationshipType: "Mãe",
      studentBirthDate: "2015-05-20", studentAddress: me.address, studentAddressComplement: "Apto 7", studentZipCode: "05422001",
      schoolId: me.ownSchool.id, avatarUrl: me.files.avatarKey, enrollmentProofUrl: me.files.proofKey,
    });
    expect(data.roles.map((r) => r.role)).toEqual(["moderator"]);
    expect(data.consents).toHaveLength(2);
    expect(data.consents[0]).toMatchObject({ marketingConsent: true, consentVersion: "1.0", userAgent: "Navegador novo" });
    expect(data.enrollments).toEqual([expect.objectContaining({ schoolName: me.offering.name, enrollmentNumber: expect.stringMatching(/^MAT-/), notes: "Observação pessoal", proofUrl: me.files.otherProofKey })]);
    expect(data.claims).toEqual([expect.objectContaining({ discountId: me.discountId })]);
    expect(data.vouchers).toEqual([expect.objectContaining({ voucherCode: me.voucherCode, schoolName: me.offering.name, discountPercentage: 25 })]);
    expect(data.schoolMemberships).toEqual([expect.objectContaining({ schoolName: me.ownSchool.name, position: "Coordenador(a)", status: "rejected" })]);
    expect(data.plansChosen).toEqual([expect.objectContaining({ planType: "bronze" })]);
    expect(data.apiTokens).toEqual([expect.objectContaining({ name: expect.stringMatching(/^Planilha da família/) })]);
    expect(data.sessions).toHaveLength(1);
    expect(data.loginAttempts).toHaveLength(1);
    expect(data.contactMessages).toEqual([expect.objectContaining({ message: "Minha dúvida pessoal", email: me.email })]);
    expect(data.emails.map((e) => e.type).sort()).toEqual(["Comprovante de matrícula para validação", "Recuperação de senha"]);
    expect(data.files.map((f) => f.key).sort()).toEqual([me.files.avatarKey, me.files.otherProofKey, me.files.proofKey].sort());

    // The signed links really serve the files.
    const server = await h.startServer();
    try {
      for (const f of data.files) {
        const url = new URL(f.url);
        const res = await fetch(`${server.url}${url.pathname}${url.search}`);
        expect(res.status).toBe(200);
      }
    } finally {
      await server.close();
    }

    for (const foreign of [other.email, other.fullName, other.studentName, other.cpf, other.voucherCode, other.id]) expect(text).not.toContain(foreign);
  });

  it("answers with the latest consent record", async () => {
    const me = await createUserEverywhere(h);
    const consent = await (await h.caller(me.id)).privacy.latestConsent();
    expect(consent).toMatchObject({ termsAccepted: true, privacyAccepted: true, dataProcessingConsent: true, marketingConsent: true, consentVersion: "1.0" });
    const none = await createUser(h);
    expect(await (await h.caller(none.id)).privacy.latestConsent()).toBeNull();
  });

  it("refuses a visitor without a session", async () => {
    const anon = await h.caller(null);
    await expect(anon.privacy.export()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anon.privacy.deleteAccount({ password: "x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anon.privacy.latestConsent()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("privacy.deleteAccount", () => {
  it("leaves no row with the user's e-mail, name or CPF, removes files and sessions, and keeps the school's counts", async () => {
    const me = await createUserEverywhere(h, { storage: h.deps.storage, cpf: "39053344705" });
    const bystander = await createUserEverywhere(h, { storage: h.deps.storage, cpf: "15350946056" });
    const { token } = await createSession(h.db, h.clock, me.id, "vitest");
    const countVouchers = async () =>
      (await h.db.select({ n: sql<number>`count(*)::int` }).from(schema.discountTransactions).where(eq(schema.discountTransactions.schoolId, me.offering.id)))[0]!.n;
    const slots = async () => (await h.db.select({ n: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, me.discountId)))[0]!.n;
    const vouchersBefore = await countVouchers();
    const slotsBefore = await slots();
    const recordsBefore = (await h.db.select().from(schema.deletionRecords)).length;

    // Through real HTTP, with the session cookie: the answer clears the cookie.
    const server = await h.startServer();
    try {
      const res = await fetch(`${server.url}/trpc/privacy.deleteAccount`, {
        method: "POST",
        headers: { cookie: `elo_session=${token}`, origin: TEST_ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ json: { password: me.password } }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toMatch(/elo_session=;|elo_session=.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
    } finally {
      await server.close();
    }

    for (const value of [me.email, me.fullName, me.studentName, me.cpf, me.address, me.id]) expect(await rowsMentioning(h.db, value), value).toEqual([]);
    expect(await validateSessionToken(h.db, h.clock, token)).toBeNull();
    // Logging in with the old credentials fails like any unknown account.
    await expect((await h.caller(null)).auth.login({ email: me.email, password: me.password })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await h.db.select().from(schema.users).where(eq(schema.users.email, me.email))).toEqual([]);
    for (const [bucket, key] of [["avatars", me.files.avatarKey], ["enrollment_proofs", me.files.proofKey], ["enrollment_proofs", me.files.otherProofKey]] as const) {
      expect(await h.deps.storage.get(bucket, key)).toBeNull();
    }

    // The voucher stays, with no link to the person; the schools stay.
    const [voucher] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.voucherCode, me.voucherCode));
    expect(voucher).toMatchObject({ userId: null, schoolId: me.offering.id });
    expect(await countVouchers()).toBe(vouchersBefore);
    expect(await slots()).toBe(slotsBefore);
    expect(await h.db.select({ id: schema.schools.id }).from(schema.schools).where(eq(schema.schools.id, me.ownSchool.id))).toHaveLength(1);

    const records = await h.db.select().from(schema.deletionRecords);
    expect(records).toHaveLength(recordsBefore + 1);
    // The date, the reason and the hash of the account's id (the ledger a restore replays, decision 182): nothing that names the person.
    expect(Object.keys(records.at(-1)!).sort()).toEqual(["accountHash", "deletedAt", "id", "reason"]);
    expect(records.at(-1)!.reason).toBe(privacyMessages.deletionReason);
    expect(records.at(-1)!.accountHash).toBe(accountHash(me.id));
    expect(records.at(-1)!.accountHash).not.toContain(me.id);

    // Another user's data is untouched.
    expect(await rowsMentioning(h.db, bystander.email)).not.toEqual([]);
    expect(await h.deps.storage.get("avatars", bystander.files.avatarKey)).not.toBeNull();
    const [profile] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, bystander.id));
    expect(profile?.studentCpf).toBe("15350946056");
  });

  it("keeps the school record when its last staff member deletes the account", async () => {
    const school = await createSchool(h, { niche: "Tecnologia", plan: "gold" });
    const staff = await createStaff(h, school.id);
    await (await h.caller(staff.id)).privacy.deleteAccount({ password: staff.password });
    expect(await h.db.select({ id: schema.schools.id }).from(schema.schools).where(eq(schema.schools.id, school.id))).toHaveLength(1);
    expect(await h.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.schoolId, school.id))).toHaveLength(1);
    expect(await h.db.select().from(schema.schoolMemberships).where(eq(schema.schoolMemberships.userId, staff.id))).toEqual([]);
  });

  it("a second call after deletion is refused (the session user no longer exists)", async () => {
    const me = await createUser(h);
    await (await h.caller(me.id)).privacy.deleteAccount({ password: me.password });
    await expect(h.caller(me.id)).rejects.toThrow(/no such user/);
  });
});
