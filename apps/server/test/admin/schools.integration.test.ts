import { schema } from "@elo/db";
import { accessMessages, adminMessages, adminQueueMessages, normalizeKey } from "@elo/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { createDiscount, csvForm } from "../support/factories/admin";
import { createSchool, createStaff, place } from "../support/factories/schools";
import { createAdmin, createUser } from "../support/factories/users";

let h: Harness;
let admin: Awaited<ReturnType<Harness["caller"]>>;
let adminId: string;
beforeAll(async () => {
  h = await createHarness();
  adminId = (await createAdmin(h)).id;
  admin = await h.caller(adminId);
});
afterAll(() => h.close());

const toastOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { toast?: { title: string; description?: string }; cause?: { issues?: { message: string }[] } }) =>
      e.toast ?? (e.cause?.issues ? { title: "zod", description: e.cause.issues[0]!.message } : null),
  );

describe("access", () => {
  it("refuses every admin procedure to anonymous, parent and institution users", async () => {
    const parent = await createUser(h);
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const id = school.id;
    const logoForm = new FormData();
    logoForm.append("schoolId", id);
    logoForm.append("file", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "logo.png"));
    const row = { index: 1, name: "X", categoria: "", modalidade: "", city: "", uf: "", neighborhood: "", address: "", phone: "", whatsapp: "", cep: "" };
    for (const userId of [null, parent.id, staff.id]) {
      const api = await h.caller(userId);
      const calls: Array<() => Promise<unknown>> = [
        () => api.admin.schools.list({}),
        () => api.admin.schools.update({ id, name: "Nome" }),
        () => api.admin.schools.delete({ id }),
        () => api.admin.schools.removeLogo({ id }),
        () => api.admin.schools.uploadLogo(logoForm),
        () => api.admin.schools.merge({ sourceId: id, targetId: parent.id }),
        () => api.admin.schools.markReviewed({ id }),
        () => api.admin.memberships.pending(),
        () => api.admin.memberships.approve({ id }),
        () => api.admin.memberships.reject({ id }),
        () => api.admin.csv.template(),
        () => api.admin.csv.preview(csvForm("name\nX\n")),
        () => api.admin.csv.import({ rows: [row] }),
        () => api.admin.parents.summary(),
        () => api.admin.parents.list({ purpose: "revisao_administrador" }),
      ];
      for (const call of calls) {
        const toast = await toastOf(call());
        expect(toast?.title).toBe(userId ? accessMessages.adminOnly : accessMessages.unauthenticated);
      }
    }
    const [still] = await h.db.select({ name: schema.schools.name }).from(schema.schools).where(eq(schema.schools.id, id));
    expect(still!.name).toBe(school.name);
  });
});

describe("admin.schools", () => {
  it("searches by name ignoring case and accents, filters by UF, city and niche, and pages", async () => {
    const sp = await createSchool(h, { name: "Escola Árvore Azul", niche: "Idiomas" });
    const rj = await createSchool(h, { name: "Escola Arvore Vermelha", uf: "RJ", city: "Rio de Janeiro", neighborhood: "Copacabana", niche: "Clubes" });
    const found = await admin.admin.schools.list({ search: "ARVORE" });
    expect(found.items.map((s) => s.id).sort()).toEqual([sp.id, rj.id].sort());
    expect(found.total).toBe(2);
    expect((await admin.admin.schools.list({ search: "árvore", uf: "RJ" })).items.map((s) => s.id)).toEqual([rj.id]);
    expect((await admin.admin.schools.list({ search: "arvore", cityId: sp.cityId! })).items.map((s) => s.id)).toEqual([sp.id]);
    expect((await admin.admin.schools.list({ search: "arvore", categoryId: rj.categoryId! })).items[0]).toMatchObject({ id: rj.id, categoryName: "Clubes" });
    const page1 = await admin.admin.schools.list({ search: "arvore", pageSize: 1, page: 1 });
    const page2 = await admin.admin.schools.list({ search: "arvore", pageSize: 1, page: 2 });
    expect(page1.items[0]!.name).toBe("Escola Árvore Azul");
    expect(page2.items[0]!.name).toBe("Escola Arvore Vermelha");
    expect((await admin.admin.schools.list({ search: "100%_" })).total).toBe(0);
  });

  it("refuses an out-of-range page or page size in Portuguese (typed API)", async () => {
    const refused = (p: Promise<unknown>, message: string) => expect(p).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(message) });
    for (const page of [0, -1, 1.5, 100_001, "2"]) {
      await refused(admin.admin.schools.list({ page } as never), adminMessages.invalidPage(100_000));
      await refused(admin.admin.parents.list({ page, purpose: "revisao_administrador" } as never), adminMessages.invalidPage(100_000));
    }
    for (const pageSize of [0, 101, 2.5, "24"]) {
      await refused(admin.admin.schools.list({ pageSize } as never), adminMessages.invalidPageSize(100));
      await refused(admin.admin.parents.list({ pageSize, purpose: "revisao_administrador" } as never), adminMessages.invalidPageSize(100));
    }
    expect(adminMessages.invalidPage(100_000)).toBe("Página inválida: use um número inteiro de 1 a 100.000.");
  });

  it("searches and pages through 20,000 schools", async () => {
    await h.db.execute(sql`insert into schools (name, name_key, uf, city, origin)
      select 'Escola Carga ' || g, 'escola carga ' || g, 'SP', 'Campinas', 'seed' from generate_series(1, 20000) g`);
    const result = await admin.admin.schools.list({ search: "carga 1999" });
    const byUf = await admin.admin.schools.list({ uf: "SP", page: 500 });
    expect(result.total).toBe(11);
    expect(byUf.total).toBeGreaterThan(20000);
    expect(byUf.items.length).toBeGreaterThan(0);
    await h.db.execute(sql`delete from schools where origin = 'seed' and city = 'Campinas'`);
  });

  it("updates a school with a checked location and niche, and renames linked profiles", async () => {
    const school = await createSchool(h, { name: "Escola Antiga" });
    const parent = await createUser(h, { profile: { schoolId: school.id, schoolName: school.name } });
    const loc = await place(h, "RJ", "Rio de Janeiro", "Copacabana");
    const [idiomas] = await h.db.select().from(schema.categories).where(eq(schema.categories.name, "Idiomas"));
    const [ingles] = await h.db.select().from(schema.modalities).where(eq(schema.modalities.name, "Inglês"));
    await admin.admin.schools.update({
      id: school.id, name: "  Escola Nova  ", stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId,
      categoryId: idiomas!.id, modalityId: ingles!.id, phone: "(21) 98888-7777", cep: "22021-001", address: "Av. Atlântica, 1",
    });
    const [after] = await h.db.select().from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(after).toMatchObject({ name: "Escola Nova", nameKey: "escola nova", uf: "RJ", city: "Rio de Janeiro", neighborhood: "Copacabana", phone: "21988887777", cep: "22021001" });
    const [profile] = await h.db.select({ schoolName: schema.profiles.schoolName }).from(schema.profiles).where(eq(schema.profiles.userId, parent.id));
    expect(profile!.schoolName).toBe("Escola Nova");
  });

  it("refuses an empty name, a city outside the state, a modality outside the niche and a duplicate identity", async () => {
    const school = await createSchool(h, { name: "Escola Para Editar" });
    const other = await createSchool(h, { name: "Escola Já Ocupada" });
    const sp = await place(h);
    const rj = await place(h, "RJ", "Rio de Janeiro", "Copacabana");
    const [idiomas] = await h.db.select().from(schema.categories).where(eq(schema.categories.name, "Idiomas"));
    const [natacao] = await h.db.select().from(schema.modalities).where(eq(schema.modalities.name, "Natação"));
    expect((await toastOf(admin.admin.schools.update({ id: school.id, name: "   " })))!.description).toBe(adminMessages.schoolNameRequired);
    expect((await toastOf(admin.admin.schools.update({ id: school.id, name: "A", stateId: sp.stateId, cityId: rj.cityId })))!.description).toBe(adminQueueMessages.invalidLocation);
    expect((await toastOf(admin.admin.schools.update({ id: school.id, name: "A", categoryId: idiomas!.id, modalityId: natacao!.id })))!.description).toBe(adminQueueMessages.invalidNiche);
    const dup = await toastOf(admin.admin.schools.update({ id: school.id, name: other.name, stateId: sp.stateId, cityId: sp.cityId, neighborhoodId: sp.neighborhoodId }));
    expect(dup).toEqual({ title: adminMessages.updateError, description: adminQueueMessages.duplicateSchool });
  });

  it("blocks deletion while a profile, a benefit or an enrollment links the school", async () => {
    const blocked = { title: adminMessages.deleteError, description: adminMessages.deleteBlocked };
    const withProfile = await createSchool(h);
    await createUser(h, { profile: { schoolId: withProfile.id } });
    expect(await toastOf(admin.admin.schools.delete({ id: withProfile.id }))).toEqual(blocked);

    const withDiscount = await createSchool(h);
    await createDiscount(h, withDiscount.id);
    expect(await toastOf(admin.admin.schools.delete({ id: withDiscount.id }))).toEqual(blocked);

    const withEnrollment = await createSchool(h);
    const parent = await createUser(h);
    await h.db.insert(schema.enrollments).values({ userId: parent.id, schoolId: withEnrollment.id, institutionName: withEnrollment.name });
    expect(await toastOf(admin.admin.schools.delete({ id: withEnrollment.id }))).toEqual(blocked);

    for (const s of [withProfile, withDiscount, withEnrollment]) {
      expect(await h.db.select().from(schema.schools).where(eq(schema.schools.id, s.id))).toHaveLength(1);
    }
    const free = await createSchool(h);
    await admin.admin.schools.delete({ id: free.id });
    expect(await h.db.select().from(schema.schools).where(eq(schema.schools.id, free.id))).toHaveLength(0);
  });

  it("removes a stored logo and its file", async () => {
    const school = await createSchool(h);
    const key = `${school.id}/logo.png`;
    await h.deps.storage.put("school_logos", key, Buffer.from("png"), "image/png");
    await h.db.update(schema.schools).set({ logoUrl: key }).where(eq(schema.schools.id, school.id));
    const listed = await admin.admin.schools.list({ search: school.name });
    expect(listed.items[0]!.logoUrl).toBe(`/files/school_logos/${key}`);
    await admin.admin.schools.removeLogo({ id: school.id });
    expect(await h.deps.storage.get("school_logos", key)).toBeNull();
    const [after] = await h.db.select({ logoUrl: schema.schools.logoUrl }).from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(after!.logoUrl).toBeNull();
  });

  it("merges a school a parent created into the kept one, moving every link", async () => {
    const kept = await createSchool(h, { name: "Colégio Oficial" });
    const [dupe] = await h.db
      .insert(schema.schools)
      .values({ name: "colegio oficial ltda", nameKey: normalizeKey("colegio oficial ltda"), origin: "parent_request", uf: "SP", city: "São Paulo" })
      .returning();
    const parent = await createUser(h, { profile: { schoolId: dupe!.id, schoolName: dupe!.name } });
    await h.db.insert(schema.enrollments).values({ userId: parent.id, schoolId: dupe!.id, institutionName: dupe!.name });
    await createDiscount(h, dupe!.id);
    const staff = await createStaff(h, dupe!.id, "pending");
    await h.db.insert(schema.subscriptions).values({ schoolId: dupe!.id, planType: "gold" });

    const requests = await admin.admin.schools.list({ origin: "parent_request" });
    expect(requests.items.map((s) => s.id)).toContain(dupe!.id);

    await admin.admin.schools.merge({ sourceId: dupe!.id, targetId: kept.id });
    expect(await h.db.select().from(schema.schools).where(eq(schema.schools.id, dupe!.id))).toHaveLength(0);
    const [profile] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, parent.id));
    expect(profile).toMatchObject({ schoolId: kept.id, schoolName: "Colégio Oficial" });
    expect((await h.db.select().from(schema.enrollments).where(eq(schema.enrollments.userId, parent.id)))[0]!.schoolId).toBe(kept.id);
    expect(await h.db.select().from(schema.discounts).where(eq(schema.discounts.schoolId, kept.id))).toHaveLength(1);
    expect((await h.db.select().from(schema.schoolMemberships).where(eq(schema.schoolMemberships.userId, staff.id)))[0]!.schoolId).toBe(kept.id);
    expect((await h.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.schoolId, kept.id)))[0]!.planType).toBe("gold");
    expect((await toastOf(admin.admin.schools.merge({ sourceId: kept.id, targetId: kept.id })))!.description).toBe(adminQueueMessages.mergeSameSchool);
  });

  it("marks a parent-created school as reviewed: it leaves the queue, stays in the grid, and the queue pages", async () => {
    const tag = `Revisar ${Date.now() % 1_000_000}`;
    const created = await h.db
      .insert(schema.schools)
      .values(Array.from({ length: 3 }, (_, i) => ({ name: `${tag} ${i}`, nameKey: normalizeKey(`${tag} ${i}`), origin: "parent_request" as const, uf: "SP", city: "São Paulo" })))
      .returning({ id: schema.schools.id });
    const queue = (page: number) => admin.admin.schools.list({ origin: "parent_request", search: tag, page, pageSize: 2 });
    expect((await queue(1)).items).toHaveLength(2);
    expect((await queue(2)).items).toHaveLength(1);
    expect((await queue(1)).total).toBe(3);

    const reviewed = await admin.admin.schools.markReviewed({ id: created[0]!.id });
    expect(reviewed).toEqual({ id: created[0]!.id, origin: "admin" });
    const after = await queue(1);
    expect(after.total).toBe(2);
    expect(after.items.map((s) => s.id)).not.toContain(created[0]!.id);
    const grid = await admin.admin.schools.list({ search: tag });
    expect(grid.items.find((s) => s.id === created[0]!.id)?.origin).toBe("admin");

    expect(await toastOf(admin.admin.schools.markReviewed({ id: created[0]!.id }))).toEqual({ title: adminQueueMessages.reviewError, description: adminQueueMessages.alreadyReviewed });
    const ordinary = await createSchool(h);
    expect((await toastOf(admin.admin.schools.markReviewed({ id: ordinary.id })))!.description).toBe(adminQueueMessages.alreadyReviewed);
    expect((await toastOf(admin.admin.schools.markReviewed({ id: "00000000-0000-4000-8000-000000000000" })))!.description).toBe(adminQueueMessages.schoolNotFound);
    // Non-admins are refused (also covered for every procedure in "access").
    const staff = await createStaff(h, created[1]!.id);
    expect((await toastOf((await h.caller(staff.id)).admin.schools.markReviewed({ id: created[1]!.id })))!.title).toBe(accessMessages.adminOnly);
    expect((await queue(1)).total).toBe(2);
  });
});

describe("admin.memberships", () => {
  it("lists pending requests and approves one, linking the profile", async () => {
    const school = await createSchool(h, { name: "Escola do Vínculo" });
    const staff = await createStaff(h, school.id, "pending");
    const pending = await admin.admin.memberships.pending();
    const request = pending.find((p) => p.userId === staff.id)!;
    expect(request).toMatchObject({ schoolName: "Escola do Vínculo", position: "Secretário(a)", email: staff.email });
    await admin.admin.memberships.approve({ id: request.id });
    const [m] = await h.db.select().from(schema.schoolMemberships).where(eq(schema.schoolMemberships.id, request.id));
    expect(m).toMatchObject({ status: "approved", decidedBy: adminId });
    expect(m!.decidedAt).toBeInstanceOf(Date);
    const [profile] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, staff.id));
    expect(profile).toMatchObject({ schoolId: school.id, schoolName: "Escola do Vínculo" });
    expect((await admin.admin.memberships.pending()).some((p) => p.id === request.id)).toBe(false);
    expect((await toastOf(admin.admin.memberships.reject({ id: request.id })))!.description).toBe(adminQueueMessages.membershipNotPending);
  });

  it("rejects a request without linking the profile", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id, "pending");
    const request = (await admin.admin.memberships.pending()).find((p) => p.userId === staff.id)!;
    await admin.admin.memberships.reject({ id: request.id });
    const [m] = await h.db.select().from(schema.schoolMemberships).where(eq(schema.schoolMemberships.id, request.id));
    expect(m!.status).toBe("rejected");
    const [profile] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, staff.id));
    expect(profile!.schoolId).toBeNull();
  });
});

describe("admin.parents", () => {
  it("summarises and lists parents newest first, searchable, with the live proof's id but never its address (issue 27), leaving admins out", async () => {
    const before = await admin.admin.parents.summary();
    const older = await createUser(h, { profile: { fullName: "Mãe Antiga", createdAt: new Date(Date.now() - 86_400_000) } });
    const newer = await createUser(h, {
      profile: { fullName: "Pai Recente", studentName: "Aluno Busca", schoolName: "Escola X", profileCompleted: true, enrollmentProofSubmitted: true, enrollmentProofUrl: "u1/proof.pdf" },
    });
    await createUser(h, { profileType: "institution" });
    const after = await admin.admin.parents.summary();
    expect(after).toEqual({ total: before.total + 2, completed: before.completed + 1, proofs: before.proofs + 1 });

    const list = await admin.admin.parents.list({ purpose: "revisao_administrador" });
    expect(list.items.some((p) => p.userId === adminId)).toBe(false);
    const ids = list.items.map((p) => p.userId);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    const found = await admin.admin.parents.list({ search: "aluno busca", purpose: "revisao_administrador" });
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ fullName: "Pai Recente", schoolName: "Escola X", profileCompleted: true, enrollmentProofSubmitted: true });
    expect(found.items[0]).not.toHaveProperty("proofUrl");
    expect(JSON.stringify(found)).not.toContain("u1/proof.pdf");
    expect((await admin.admin.parents.list({ search: "Mãe Antiga", purpose: "suporte", ticket: "CH-1" })).items[0]!.proofId).toBeNull();
  });
});
