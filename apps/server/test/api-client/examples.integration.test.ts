import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiToken } from "../support/factories/apiTokens";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin, createUser } from "../support/factories/users";
import { insertProof } from "../support/factories/proofs";
import { insertVoucher } from "../support/factories/vouchers";
import { runExample } from "../support/examples";
import { withServer, type Harness, type TestServer } from "../support/harness";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

/** A token of this user, and a function that revokes it through the API as the user would. */
async function tokenFor(userId: string) {
  const t = await createApiToken(h, userId);
  return { ...t, revoke: async () => (await h.caller(userId)).apiTokens.revoke({ id: t.id }) };
}

describe("examples/whoami.mjs", () => {
  it("prints the token's account, and UNAUTHORIZED after revocation", async () => {
    const admin = await createAdmin(h);
    const token = await tokenFor(admin.id);
    const ok = await runExample("whoami.mjs", { url: server.url, token: token.token });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`${admin.email} (administrador)`);
    await token.revoke();
    const revoked = await runExample("whoami.mjs", { url: server.url, token: token.token });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain("Erro UNAUTHORIZED: Token de API inválido, expirado ou revogado.");
  });

  it("works for a parent too", async () => {
    const parent = await createUser(h);
    const { token } = await tokenFor(parent.id);
    const ok = await runExample("whoami.mjs", { url: server.url, token });
    expect(ok.stdout).toContain(`${parent.email} (responsável)`);
  });
});

describe("examples/school-enrollments.mjs (issue 21: a school's script decides its pending verifications with its token)", () => {
  it("lists the school's pending proofs only, confirms one and refuses another; a decided proof is a CONFLICT", async () => {
    const school = await createSchool(h);
    const other = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const ana = await eligibleParent(h, { schoolId: school.id, profile: { fullName: "Ana Souza", studentName: "Bia Souza" } });
    const caio = await eligibleParent(h, { schoolId: school.id, profile: { fullName: "Caio Lima", studentName: "Davi Lima" } });
    const first = await insertProof(h, ana.id, school.id, { studentName: "Bia Souza", declaredClass: "3º ano A" });
    const second = await insertProof(h, caio.id, school.id, { studentName: "Davi Lima" });
    await insertProof(h, (await eligibleParent(h, { schoolId: other.id })).id, other.id, { studentName: "Outra Escola" });
    const { token } = await tokenFor(staff.id);

    const list = await runExample("school-enrollments.mjs", { url: server.url, token });
    expect(list.stderr).toBe("");
    expect(list.stdout).toContain("2 comprovante(s) aguardando confirmação:");
    expect(list.stdout).toContain(`${first.id}  Bia Souza  3º ano A  responsável: Ana Souza`);
    expect(list.stdout).not.toContain("Outra Escola");

    const confirmed = await runExample("school-enrollments.mjs", { url: server.url, token, args: ["confirm", first.id] });
    expect(confirmed.stdout).toMatch(/^Matrícula confirmada; vale até 2\d\/02\/\d{4}\.$/m);
    const refused = await runExample("school-enrollments.mjs", { url: server.url, token, args: ["refuse", second.id, "outro", "Falta", "o", "carimbo"] });
    expect(refused.stdout).toContain("Comprovante recusado");
    const [row] = await h.db.select().from(schema.enrollmentProofs).where(eq(schema.enrollmentProofs.id, second.id));
    expect(row).toMatchObject({ status: "recusado", refusalReason: "outro", refusalNote: "Falta o carimbo" });
    const again = await runExample("school-enrollments.mjs", { url: server.url, token, args: ["confirm", first.id] });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Erro CONFLICT:");
    expect((await runExample("school-enrollments.mjs", { url: server.url, token })).stdout).toContain("Nenhum comprovante aguardando confirmação.");
  });
});

describe("examples/school-vouchers.mjs", () => {
  it("lists the school's reserved vouchers and confirms one by code; UNAUTHORIZED after revocation", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const other = await createSchool(h, { plan: "gold" });
    const staff = await createStaff(h, school.id);
    const parent = await createUser(h, { profile: { studentName: "Ana Souza" } });
    const benefit = await createDiscount(h, school.id, { className: "Inglês Teens" });
    const reserved = await insertVoucher(h, benefit, parent.id, { code: "4321-ABCD", validUntil: "2999-12-31" });
    await insertVoucher(h, benefit, parent.id, { code: "4321-USED", status: "utilizado" });
    await insertVoucher(h, await createDiscount(h, other.id), parent.id, { code: "4321-OTHR" });
    const token = await tokenFor(staff.id);

    const list = await runExample("school-vouchers.mjs", { url: server.url, token: token.token });
    expect(list.stderr).toBe("");
    expect(list.stdout).toContain("1 voucher(s) reservado(s):");
    expect(list.stdout).toContain(`4321-ABCD  Ana Souza  ${benefit.className}`);
    expect(list.stdout).toContain("válido até 31/12/2999");
    expect(list.stdout).not.toContain("4321-USED");
    expect(list.stdout).not.toContain("4321-OTHR");

    const confirm = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["confirm", "4321abcd"] });
    expect(confirm.stderr).toBe("");
    expect(confirm.stdout).toContain(`Voucher 4321-ABCD confirmado: Ana Souza, ${benefit.className}`);
    const [row] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, reserved.id));
    expect(row!.status).toBe("utilizado");

    const again = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["confirm", "4321-ABCD"] });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Erro CONFLICT:");
    const foreign = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["confirm", "4321-OTHR"] });
    expect(foreign.stderr).toContain("Erro FORBIDDEN:");

    // Cancelling by script (decision 122): the slot returns and the parent's e-mail is queued.
    const toCancel = await insertVoucher(h, benefit, parent.id, { code: "4321-CNCL" });
    const badReason = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["cancel", "4321-CNCL", "sumiu"] });
    expect(badReason.stderr).toContain("Erro BAD_REQUEST:");
    const cancel = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["cancel", "4321-cncl", "dados_incorretos"] });
    expect(cancel.stderr).toBe("");
    expect(cancel.stdout).toContain("Voucher 4321-CNCL cancelado (dados_incorretos); a vaga voltou para o benefício.");
    const [cancelled] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, toCancel.id));
    expect(cancelled).toMatchObject({ status: "cancelado", cancelReason: "dados_incorretos", cancelledBy: staff.id });
    const [slots] = await h.db.select({ n: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, benefit.id));
    expect(slots!.n).toBe(benefit.numberOfStudents + 1);
    const cancelAgain = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["cancel", "4321-CNCL", "outro"] });
    expect(cancelAgain.stderr).toContain("Erro CONFLICT: Este voucher já foi cancelado.");

    // The waitlist's length per benefit (decision 123).
    const empty = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["waitlist"] });
    expect(empty.stdout).toContain("Nenhuma família em lista de espera.");
    const soldOut = await createDiscount(h, school.id, { className: "Inglês Lotado", slots: 0 });
    for (let i = 0; i < 2; i++) await h.db.insert(schema.waitlistEntries).values({ discountId: soldOut.id, userId: (await createUser(h)).id });
    const waiting = await runExample("school-vouchers.mjs", { url: server.url, token: token.token, args: ["waitlist"] });
    expect(waiting.stderr).toBe("");
    expect(waiting.stdout).toContain("Inglês Lotado: 2 na lista de espera, 0 vaga(s) oferecida(s) aguardando resposta");

    await token.revoke();
    const revoked = await runExample("school-vouchers.mjs", { url: server.url, token: token.token });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain("Erro UNAUTHORIZED: Token de API inválido, expirado ou revogado.");
  });

  it("a parent's token is FORBIDDEN", async () => {
    const parent = await createUser(h);
    const { token } = await tokenFor(parent.id);
    const res = await runExample("school-vouchers.mjs", { url: server.url, token });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("Erro FORBIDDEN: Você não tem permissão para acessar esta página");
    const confirm = await runExample("school-vouchers.mjs", { url: server.url, token, args: ["confirm", "4321-ABCD"] });
    expect(confirm.stderr).toContain("Erro FORBIDDEN:");
  });
});

describe("examples/list-my-benefits.mjs", () => {
  it("lists the parent's marketplace benefits; UNAUTHORIZED after revocation", async () => {
    const parent = await eligibleParent(h);
    const school = await createOfferingSchool(h, { name: "Fluent Exemplo" });
    await createDiscount(h, school.id, { className: "Inglês Kids", percentage: 20, monthlyFee: 500, slots: 3 });
    const token = await tokenFor(parent.id);
    const ok = await runExample("list-my-benefits.mjs", { url: server.url, token: token.token });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("-20%  Inglês Kids — Fluent Exemplo: pague apenas R$ 400,00 (depois R$ 500,00), 3 vagas disponíveis");
    await token.revoke();
    const revoked = await runExample("list-my-benefits.mjs", { url: server.url, token: token.token });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain("Erro UNAUTHORIZED: Token de API inválido, expirado ou revogado.");
  });
});

describe("examples/find-benefits.mjs", () => {
  it("searches and filters like /home, names the niches with their counts, and says what to remove when nothing is left", async () => {
    const parent = await eligibleParent(h);
    const school = await createOfferingSchool(h, { name: "Fluent Filtros" });
    await createDiscount(h, school.id, { className: "Inglês Teens", percentage: 40, monthlyFee: 500, slots: 2 });
    await createDiscount(h, school.id, { className: "Inglês Adultos", percentage: 10, monthlyFee: 500, slots: 2 });
    const token = await tokenFor(parent.id);
    const found = await runExample("find-benefits.mjs", { url: server.url, token: token.token, args: ["ingles", "--nicho", "idiomas", "--ate", "300", "--ordem", "desconto"] });
    expect(found.stderr).toBe("");
    expect(found.code).toBe(0);
    expect(found.stdout).toContain("Idiomas (1)");
    expect(found.stdout).toContain("1 benefício(s) encontrado(s):");
    expect(found.stdout).toContain("-40%  Inglês Teens — Fluent Filtros: pague apenas R$ 300,00 (depois R$ 500,00), 2 vagas disponíveis");
    const none = await runExample("find-benefits.mjs", { url: server.url, token: token.token, args: ["ingles adultos", "--ate", "100"] });
    expect(none.stdout).toContain("Nenhum benefício com esses filtros. Sem o filtro 'maxFee' aparecem 1.");
    const bad = await runExample("find-benefits.mjs", { url: server.url, token: token.token, args: ["--desconto", "150"] });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Erro BAD_REQUEST");
    expect(bad.stderr).toContain("Informe o desconto mínimo de 0 a 100%");
  });
});

describe("examples/import-schools.mjs", () => {
  it("imports the sample CSV and prints the summary; a second run updates; UNAUTHORIZED after revocation", async () => {
    const admin = await createAdmin(h);
    const token = await tokenFor(admin.id);
    const first = await runExample("import-schools.mjs", { url: server.url, token: token.token, args: ["examples/escolas-exemplo.csv"] });
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("CSV processado: 2 válidas, 0 avisos, 1 inválidas");
    expect(first.stdout).toContain("linha 3 (sem nome): inválida");
    expect(first.stdout).toContain("Importação concluída! 2 novas, 0 atualizadas");
    const [row] = await h.db.select().from(schema.schools).where(eq(schema.schools.name, "Colégio Exemplo do Bairro"));
    expect(row).toMatchObject({ uf: "SP", city: "São Paulo", neighborhood: "Pinheiros", origin: "csv" });

    const second = await runExample("import-schools.mjs", { url: server.url, token: token.token, args: ["examples/escolas-exemplo.csv"] });
    expect(second.stdout).toContain("Importação concluída! 0 novas, 2 atualizadas");

    await token.revoke();
    const revoked = await runExample("import-schools.mjs", { url: server.url, token: token.token, args: ["examples/escolas-exemplo.csv"] });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain("Erro UNAUTHORIZED: Token de API inválido, expirado ou revogado.");
  });

  it("a parent's or a school's token is FORBIDDEN", async () => {
    const parent = await createUser(h);
    const staff = await createStaff(h, (await createSchool(h)).id);
    const schoolCount = async () => (await h.db.select({ id: schema.schools.id }).from(schema.schools)).length;
    const before = await schoolCount();
    for (const user of [parent, staff]) {
      const { token } = await tokenFor(user.id);
      const res = await runExample("import-schools.mjs", { url: server.url, token, args: ["examples/escolas-exemplo.csv"] });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("Erro FORBIDDEN: Acesso negado. Apenas administradores podem acessar esta página.");
    }
    expect(await schoolCount()).toBe(before);
  });
});

describe("examples/export-my-data.mjs", () => {
  it("writes the parent's export to a timestamped file that parses with their e-mail; UNAUTHORIZED after revocation", async () => {
    const parent = await eligibleParent(h);
    const stranger = await eligibleParent(h);
    const token = await tokenFor(parent.id);
    const dir = await mkdtemp(path.join(tmpdir(), "elo-export-"));
    try {
      const ok = await runExample("export-my-data.mjs", { url: server.url, token: token.token, cwd: dir });
      expect(ok.stderr).toBe("");
      expect(ok.code).toBe(0);
      const files = await readdir(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^elo-escolar-dados-\d{4}-\d{2}-\d{2}-\d{6}\.json$/);
      const data = JSON.parse(await readFile(path.join(dir, files[0]!), "utf8"));
      expect(data.account.email).toBe(parent.email);
      expect(data.profile.userId).toBe(parent.id);
      expect(JSON.stringify(data)).not.toContain(stranger.email);
      expect(JSON.stringify(data)).not.toMatch(/passwordHash|password_hash|tokenHash/);
      expect(ok.stdout).toContain(`Dados exportados com sucesso! Arquivo: ${path.join(dir, files[0]!)}`);
      expect(ok.stdout).toContain(`Conta: ${parent.email}`);

      const named = await runExample("export-my-data.mjs", { url: server.url, token: token.token, cwd: dir, args: ["sub/meus-dados.json"] });
      expect(named.code).toBe(0);
      expect(JSON.parse(await readFile(path.join(dir, "sub/meus-dados.json"), "utf8")).account.email).toBe(parent.email);

      await token.revoke();
      const revoked = await runExample("export-my-data.mjs", { url: server.url, token: token.token, cwd: dir, args: ["depois"] });
      expect(revoked.code).toBe(1);
      expect(revoked.stderr).toContain("Erro UNAUTHORIZED: Token de API inválido, expirado ou revogado.");
      expect(await readdir(path.join(dir, "depois")).catch(() => [])).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
