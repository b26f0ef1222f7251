import { schema } from "@elo/db";
import { normalizeKey, profileMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { createSchool, createStaff, place } from "../support/factories/schools";
import { createUser } from "../support/factories/users";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const filled = {
  phone: "(11) 98765-4321",
  relationshipType: "Mãe",
  studentName: "Ana Souza",
  studentBirthDate: "2015-03-10",
  studentCpf: "529.982.247-25",
  studentAddress: "Rua dos Pinheiros, 100",
  studentAddressComplement: "Apto 12",
  studentNeighborhood: "Pinheiros",
  studentZipCode: "05422-000",
  publicSchoolPaidActivity: false,
};

async function rejects(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    return error as { code: string; toast?: { title: string; description?: string }; cause?: { issues?: { message: string }[] } };
  }
  throw new Error("expected a refusal");
}
const ids = (l: { stateId: number; cityId: number; neighborhoodId: number }) => ({ stateId: l.stateId, cityId: l.cityId, neighborhoodId: l.neighborhoodId });
const profileRow = async (userId: string) => (await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, userId)))[0]!;

describe("profile.update validation (spec 1 §5)", () => {
  it.each([
    ["studentCpf", "123.456.789-00", "CPF inválido"],
    ["studentCpf", "111.111.111-11", "CPF inválido"],
    ["studentZipCode", "00000-000", "CEP inválido"],
    ["studentZipCode", "1234", "CEP inválido"],
    ["phone", "(10) 98765-4321", "Telefone inválido. Use formato (XX) XXXXX-XXXX"],
    ["phone", "(11) 88765-4321", "Telefone inválido. Use formato (XX) XXXXX-XXXX"],
    ["phone", "(11) 1111-1111", "Telefone inválido. Use formato (XX) XXXXX-XXXX"],
    ["studentBirthDate", "2015-02-30", "Data de nascimento inválida"],
    ["studentBirthDate", "2015-13-01", "Data de nascimento inválida"],
    ["studentBirthDate", "10/03/2015", "Data de nascimento inválida"],
    ["studentBirthDate", "2999-01-01", "A data de nascimento não pode estar no futuro."],
    ["relationshipType", "Vizinha", "Selecione um parentesco da lista."],
  ])("refuses %s = %s with '%s' and saves nothing", async (field, value, message) => {
    const user = await createUser(h, { profile: { studentName: "Antes" } });
    const api = await h.caller(user.id);
    const error = await rejects(api.profile.update({ ...filled, [field]: value }));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.cause?.issues?.[0]?.message).toBe(message);
    expect((await profileRow(user.id)).studentName).toBe("Antes");
  });

  it("accepts every relationship of the reference list and a past birth date", async () => {
    const user = await createUser(h);
    const api = await h.caller(user.id);
    const names = (await api.reference.relationshipTypes()).map((r) => r.name);
    expect(names.length).toBeGreaterThan(3);
    for (const relationshipType of names) await api.profile.update({ ...filled, relationshipType });
    const row = await profileRow(user.id);
    expect(row.relationshipType).toBe(names.at(-1));
    expect(row.studentBirthDate).toBe("2015-03-10");
  });

  it("stores digits only, keeps blank optional fields as null, and never changes the name", async () => {
    const user = await createUser(h);
    const api = await h.caller(user.id);
    await api.profile.update({ ...filled, studentAddressComplement: "  " });
    const row = await profileRow(user.id);
    expect(row).toMatchObject({ phone: "11987654321", studentCpf: "52998224725", studentZipCode: "05422000", studentAddressComplement: null, fullName: "Usuário de Teste" });
    await expect(api.profile.update({ ...filled, fullName: "Outro" } as never)).rejects.toThrow();
  });

  it("refuses strangers: institution users and anonymous callers", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    expect((await rejects((await h.caller(staff.id)).profile.update(filled))).code).toBe("FORBIDDEN");
    expect((await rejects((await h.caller(null)).profile.get())).code).toBe("UNAUTHORIZED");
  });
});

describe("profile completion (spec 1 §4)", () => {
  it("sets profile_completed only when every field of the rule is filled", async () => {
    const school = await createSchool(h);
    const user = await createUser(h, { profile: { fullName: "Maria Souza" } });
    const api = await h.caller(user.id);
    await api.profile.update(filled);
    expect((await profileRow(user.id)).profileCompleted).toBe(false);
    const saved = await api.profile.saveMainSchool({ schoolId: school.id });
    expect(saved).toMatchObject({ schoolName: school.name, profileCompleted: true });
    expect(await profileRow(user.id)).toMatchObject({ schoolId: school.id, schoolName: school.name, profileCompleted: true });
  });

  it.each(["phone", "relationshipType", "studentName", "studentBirthDate", "studentCpf", "studentAddress", "studentNeighborhood", "studentZipCode"] as const)(
    "keeps profile_completed false while %s is missing",
    async (missing) => {
      const school = await createSchool(h);
      const user = await createUser(h, { profile: { fullName: "Maria Souza" } });
      const api = await h.caller(user.id);
      await api.profile.update({ ...filled, [missing]: null });
      expect((await api.profile.saveMainSchool({ schoolId: school.id })).profileCompleted).toBe(false);
    },
  );

  it("keeps it false without a full name, and without a school", async () => {
    const school = await createSchool(h);
    const nameless = await createUser(h, { profile: { fullName: null } });
    await (await h.caller(nameless.id)).profile.update(filled);
    expect((await (await h.caller(nameless.id)).profile.saveMainSchool({ schoolId: school.id })).profileCompleted).toBe(false);
    const schoolless = await createUser(h);
    expect((await (await h.caller(schoolless.id)).profile.update(filled)).profileCompleted).toBe(false);
  });

  it("'Escola não selecionada' when saving without a school", async () => {
    const user = await createUser(h);
    const error = await rejects((await h.caller(user.id)).profile.saveMainSchool({ schoolId: null }));
    expect(error.toast).toEqual({ title: "Escola não selecionada" });
  });
});

describe("profile.get", () => {
  it("returns the caller's own profile with the linked school and first 3 enrollments by creation", async () => {
    const main = await createSchool(h);
    const user = await createUser(h, { profile: { schoolId: main.id, schoolName: main.name, studentName: "Ana" } });
    const other = await createUser(h, { profile: { studentName: "Outro aluno" } });
    const api = await h.caller(user.id);
    const schools = await Promise.all([1, 2, 3].map(() => createSchool(h, { niche: "Idiomas" })));
    for (const s of schools) {
      await api.profile.enrollments.saveSchool({ schoolId: s.id });
      h.clock.advance(1000);
    }
    const data = await api.profile.get();
    expect(data).toMatchObject({ studentName: "Ana", school: { id: main.id, name: main.name } });
    expect(data!.enrollments.map((e) => e.schoolId)).toEqual(schools.map((s) => s.id));
    expect(((await (await h.caller(other.id)).profile.get())!).studentName).toBe("Outro aluno");
  });
});

describe("new school request", () => {
  it("'Nome inválido' for a blank name and 'Localização incompleta' without a full location", async () => {
    const user = await createUser(h);
    const api = await h.caller(user.id);
    const loc = ids(await place(h));
    expect((await rejects(api.profile.requestSchool({ name: "   ", ...loc }))).toast).toEqual({ title: "Nome inválido", description: "Digite o nome da escola." });
    expect((await rejects(api.profile.requestSchool({ name: "Escola Nova", stateId: loc.stateId, cityId: loc.cityId }))).toast).toEqual({
      title: "Localização incompleta",
      description: "Selecione UF, Cidade e Bairro.",
    });
    const [foreign] = await h.db.select().from(schema.neighborhoods).where(eq(schema.neighborhoods.cityId, (await place(h, "RJ", "Rio de Janeiro", "Copacabana")).cityId));
    expect((await rejects(api.profile.requestSchool({ name: "Escola Nova", stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: foreign!.id }))).toast?.title).toBe("Localização incompleta");
  });

  it("creates the school (origin parent_request), links it, e-mails the admin; a second try finds it case- and accent-insensitively", async () => {
    const user = await createUser(h, { profile: { fullName: "Maria Souza" } });
    const api = await h.caller(user.id);
    const loc = ids(await place(h));
    const name = `Colégio São João ${Date.now()}`;
    const first = await api.profile.requestSchool({ name: `  ${name} `, stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId });
    expect(first.found).toBe(false);
    const [school] = await h.db.select().from(schema.schools).where(eq(schema.schools.id, first.school.id));
    expect(school).toMatchObject({ name, origin: "parent_request", uf: "SP", city: "São Paulo", neighborhood: "Pinheiros", createdBy: user.id });
    expect((await profileRow(user.id)).schoolId).toBe(school!.id);
    const mails = await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "school-registration"));
    const mail = mails.find((m) => m.text?.includes(name));
    expect(mail).toBeDefined();
    expect(mail!.to).toBe(h.config.ADMIN_EMAIL);
    for (const text of ["SP", "São Paulo", "Pinheiros", "Maria Souza", user.email]) expect(mail!.text).toContain(text);

    const again = await api.profile.requestSchool({ name: name.toUpperCase().replace("São", "SAO").replace("Colégio", "colegio"), ...loc });
    expect(again).toMatchObject({ found: true, school: { id: school!.id } });
    expect((await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "school-registration"))).filter((m) => m.text?.includes(name))).toHaveLength(1);
  });

  it("finds a school typed without accents, in other case and without reference ids ('Escola encontrada')", async () => {
    const user = await createUser(h);
    const loc = ids(await place(h, "SP", "São Paulo", "Jardim Ângela"));
    const name = `Escola Acento ${Date.now()}`;
    // As a CSV import or an admin might have typed it: plain letters, other case, no reference ids.
    const [typed] = await h.db
      .insert(schema.schools)
      .values({ name, nameKey: normalizeKey(name), uf: "sp", city: "SAO PAULO", neighborhood: "jardim  angela", origin: "csv" })
      .returning({ id: schema.schools.id });
    const res = await (await h.caller(user.id)).profile.requestSchool({ name, ...loc });
    expect(res).toMatchObject({ found: true, school: { id: typed!.id } });
    expect(profileMessages.schoolFound).toBe("Escola encontrada");
    expect((await h.db.select().from(schema.schools).where(eq(schema.schools.nameKey, normalizeKey(name))))).toHaveLength(1);
  });

  it("finds a school by its reference ids even when its stored names are spelled differently", async () => {
    const user = await createUser(h);
    const loc = ids(await place(h, "SP", "São Paulo", "Pinheiros"));
    const name = `Escola Ids ${Date.now()}`;
    const [typed] = await h.db
      .insert(schema.schools)
      .values({ name, nameKey: normalizeKey(name), uf: "SP", city: "S. Paulo", neighborhood: "Pinheiros (Zona Oeste)", ...loc, origin: "admin" })
      .returning({ id: schema.schools.id });
    expect(await (await h.caller(user.id)).profile.requestSchool({ name, ...loc })).toMatchObject({ found: true, school: { id: typed!.id } });
  });

  it("keeps one school per name + UF + city + neighborhood, also when the neighborhood (or city) is empty", async () => {
    const name = `Escola Sem Bairro ${Date.now()}`;
    const row = { name, nameKey: normalizeKey(name), uf: "SP", city: "Campinas", neighborhood: null, origin: "admin" as const };
    await h.db.insert(schema.schools).values(row);
    await expect(h.db.insert(schema.schools).values(row)).rejects.toMatchObject({ cause: { code: "23505" } });
    await expect(h.db.insert(schema.schools).values({ ...row, city: "campinas ", uf: "sp" })).rejects.toMatchObject({ cause: { code: "23505" } });
    await expect(h.db.insert(schema.schools).values({ ...row, city: null })).resolves.toBeDefined();
    await expect(h.db.insert(schema.schools).values({ ...row, city: null })).rejects.toMatchObject({ cause: { code: "23505" } });
    await expect(h.db.insert(schema.schools).values({ ...row, neighborhood: "Cambuí" })).resolves.toBeDefined();
    await expect(h.db.insert(schema.schools).values({ ...row, neighborhood: "Cambui" })).rejects.toMatchObject({ cause: { code: "23505" } });
  });

  it("from an enrollment tab it creates but does not link the main school", async () => {
    const user = await createUser(h);
    const loc = ids(await place(h));
    const res = await (await h.caller(user.id)).profile.requestSchool({ name: `Inglês Já ${Date.now()}`, ...loc, target: "enrollment" });
    expect(res.found).toBe(false);
    expect((await profileRow(user.id)).schoolId).toBeNull();
  });
});

describe("other enrollments", () => {
  it("adds at most 3, edits own ones, and refuses another parent's", async () => {
    const user = await createUser(h);
    const stranger = await createUser(h);
    const api = await h.caller(user.id);
    const s = await createSchool(h, { niche: "Idiomas" });
    const added = await api.profile.enrollments.save({ schoolId: s.id, enrollmentNumber: "123", period: "tarde", classNumber: "B2", startDate: "2026-02-01", endDate: "2026-12-10", notes: "Inglês" });
    expect(added.created).toBe(true);
    await api.profile.enrollments.save({ schoolId: s.id });
    await api.profile.enrollments.saveSchool({ schoolId: s.id });
    expect((await rejects(api.profile.enrollments.save({ schoolId: s.id }))).toast).toEqual({ title: "Você pode cadastrar no máximo 3 outras matrículas." });
    const updated = await api.profile.enrollments.save({ id: added.id, schoolId: s.id, period: "noite" });
    expect(updated.created).toBe(false);
    const list = await api.profile.enrollments.list();
    expect(list).toHaveLength(3);
    expect(list.find((e) => e.id === added.id)).toMatchObject({ period: "noite", enrollmentNumber: null, institutionName: s.name });

    const other = await h.caller(stranger.id);
    expect((await rejects(other.profile.enrollments.save({ id: added.id, schoolId: s.id }))).code).toBe("NOT_FOUND");
    expect((await rejects(other.profile.enrollments.saveSchool({ id: added.id, schoolId: s.id }))).code).toBe("NOT_FOUND");
    expect((await rejects(other.profile.enrollments.remove({ id: added.id }))).code).toBe("NOT_FOUND");
    expect(await other.profile.enrollments.list()).toEqual([]);
    await api.profile.enrollments.remove({ id: added.id });
    expect(await api.profile.enrollments.list()).toHaveLength(2);
  });

  it("'Por favor, selecione uma escola.' without a school, and refuses an end before the start", async () => {
    const user = await createUser(h);
    const api = await h.caller(user.id);
    expect((await rejects(api.profile.enrollments.save({ schoolId: null }))).toast).toEqual({ title: "Por favor, selecione uma escola." });
    const s = await createSchool(h);
    const reversed = await rejects(api.profile.enrollments.save({ schoolId: s.id, startDate: "2026-05-01", endDate: "2026-04-01" }));
    expect(reversed.code).toBe("BAD_REQUEST");
    expect(reversed.cause?.issues?.[0]?.message).toBe("A data de término deve ser igual ou posterior à data de início.");
    expect(await api.profile.enrollments.list()).toEqual([]);
  });

  it.each([
    ["startDate", "2015-02-30", "Data de início inválida"],
    ["endDate", "2026-04-31", "Data de término inválida"],
  ])("refuses %s = %s with '%s' (not a database error)", async (field, value, message) => {
    const user = await createUser(h);
    const api = await h.caller(user.id);
    const s = await createSchool(h);
    const error = await rejects(api.profile.enrollments.save({ schoolId: s.id, [field]: value }));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.cause?.issues?.[0]?.message).toBe(message);
    expect(await api.profile.enrollments.list()).toEqual([]);
  });

  it("is for parents only", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    expect((await rejects((await h.caller(staff.id)).profile.enrollments.list())).code).toBe("FORBIDDEN");
  });
});

describe("schools.byNeighborhood", () => {
  it("lists only id, name and logo of the neighborhood's schools, to anyone", async () => {
    const s = await createSchool(h, { neighborhood: `Bairro ${Date.now()}` });
    const rows = await (await h.caller(null)).schools.byNeighborhood({ neighborhoodId: s.neighborhoodId! });
    expect(rows).toEqual([{ id: s.id, name: s.name, logoUrl: null }]);
  });
});
