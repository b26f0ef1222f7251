import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { createDiscount, eligibleParent } from "../support/factories/benefits";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin } from "../support/factories/users";
import { insertVoucher } from "../support/factories/vouchers";
import { eventually, networkSchool, visibleText } from "./helpers";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const page = async (path: string) => {
  const res = await fetch(`${server.url}${path}`, { redirect: "follow" });
  return { status: res.status, html: await res.text() };
};

describe("public pages publish only what a school may publish (issue 26)", () => {
  it("shows no parent, student, staff or voucher field, even when their names are substrings of school names", async () => {
    const offering = await networkSchool(h, { name: "Idiomas Marina Costa Prado", niche: "Idiomas", neighborhood: "Moema", staff: false, benefits: [{ className: "Conversação" }] });
    const main = await createSchool(h, { name: "Colégio Helena Ribeiro Lima", niche: "Ed. Básica", neighborhood: "Moema" });
    // Staff and parents named after pieces of the schools' names, with every private field filled in.
    const staff = await createStaff(h, offering.school.id);
    await h.db.update(schema.profiles).set({ fullName: "Marina Costa", phone: "11977770001", position: "Diretora Prado" }).where(eq(schema.profiles.userId, staff.id));
    const mainStaff = await createStaff(h, main.id);
    await h.db.update(schema.profiles).set({ fullName: "Helena Ribeiro", phone: "11977770002" }).where(eq(schema.profiles.userId, mainStaff.id));
    const parent = await eligibleParent(h, {
      schoolId: main.id,
      email: "costa.prado.responsavel@teste.com.br",
      profile: { fullName: "Ribeiro Lima", phone: "11966660003", studentName: "Costa Prado", studentCpf: "39053344705", studentAddress: "Rua Sigilosa, 77", studentZipCode: "04077000" },
    });
    const voucher = await insertVoucher(h, { id: offering.benefits[0]!.id, schoolId: offering.school.id }, parent.id, { code: "7391-QWXZ" });
    const admin = await createAdmin(h, { email: "admin.marina@teste.com.br" });

    const schoolNames = ["Idiomas Marina Costa Prado", "Colégio Helena Ribeiro Lima"];
    const privateValues = [
      "Marina Costa", "Diretora Prado", "Helena Ribeiro", "Ribeiro Lima", "Costa Prado", "Responsável de Teste", "Aluno de Teste",
      "11977770001", "(11) 97777-0001", "11977770002", "11966660003", "39053344705", "390.533.447-05", "Rua Sigilosa", "04077000", "04077-000",
      voucher.voucherCode, parent.email, staff.email, mainStaff.email, admin.email, parent.id, staff.id, mainStaff.id, admin.id, voucher.id,
    ];
    const city = "/escolas/sp/sao-paulo";
    const paths = [
      "/escolas", "/escolas/sp", city,
      `${city}/${offering.school.id}-idiomas-marina-costa-prado`, `${city}/${main.id}-colegio-helena-ribeiro-lima`,
      "/escolas?q=Marina", "/escolas?q=Costa+Prado", "/escolas?q=Ribeiro+Lima", "/escolas?q=Helena", "/escolas?q=Rua+Sigilosa", "/nao-existe",
    ];
    let seen = 0;
    for (const path of paths) {
      const { status, html } = await page(path);
      expect([200, 404], path).toContain(status);
      // Whatever remains once the schools' own names are taken out of the page, markup included.
      let rest = `${html} ${visibleText(html)}`;
      // ... and the visitor's own query, which a search page repeats.
      const query = new URLSearchParams(path.split("?")[1] ?? "").get("q");
      for (const name of [...schoolNames, ...(query ? [query] : [])]) rest = rest.split(name).join("");
      for (const value of privateValues) expect(rest, `${path} shows ${value}`).not.toContain(value);
      if (html.includes("Idiomas Marina Costa Prado")) seen++;
    }
    // The pages did show the schools (the check above is not vacuous).
    expect(seen).toBe(5);
    // The search finds schools by name, never people.
    expect(visibleText((await page("/escolas?q=Rua+Sigilosa")).html)).toContain("Nada encontrado");
  });

  it("the school's switch and an admin's hide take the page off (410) and its name off the city page", async () => {
    const { school } = await networkSchool(h, { name: "Escola do Interruptor", uf: "SC", city: "Florianópolis", neighborhood: "Centro", benefits: [{ className: "Natação" }] });
    const staff = await createStaff(h, school.id);
    const path = `/escolas/sc/florianopolis/${school.id}-escola-do-interruptor`;
    const asStaff = await h.caller(staff.id);
    // On by default for a school with approved staff, with its address on /dados-da-escola.
    expect((await page(path)).status).toBe(200);
    expect(await asStaff.school.data.get()).toMatchObject({ publicPage: true, publicHidden: false, publicPath: path });

    await asStaff.school.data.setPublicPage({ publicPage: false });
    await eventually(async () => expect((await page(path)).status).toBe(410));
    expect((await page("/escolas/sc/florianopolis")).status).toBe(404);
    expect(await asStaff.school.data.get()).toMatchObject({ publicPage: false, publicPath: null });
    await asStaff.school.data.setPublicPage({ publicPage: true });
    await eventually(async () => expect((await page(path)).status).toBe(200));

    // An admin hides it whatever the switch says; a stranger (staff of another school, a parent) cannot.
    const stranger = await createStaff(h, (await networkSchool(h, { name: "Outra Escola SC", uf: "SC", city: "Florianópolis" })).school.id);
    await expect((await h.caller(stranger.id)).admin.schools.setPublicHidden({ id: school.id, hidden: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const parent = await eligibleParent(h);
    await expect((await h.caller(parent.id)).admin.schools.setPublicHidden({ id: school.id, hidden: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await h.caller(null)).school.data.setPublicPage({ publicPage: false })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await page(path)).status).toBe(200);

    const admin = await createAdmin(h);
    expect(await (await h.caller(admin.id)).admin.schools.setPublicHidden({ id: school.id, hidden: true })).toEqual({ id: school.id, publicHidden: true });
    await eventually(async () => expect((await page(path)).status).toBe(410));
    expect(visibleText((await page("/escolas/sc/florianopolis")).html)).not.toContain("Escola do Interruptor");
    expect(await asStaff.school.data.get()).toMatchObject({ publicPage: true, publicHidden: true, publicPath: null });
    const listed = await (await h.caller(admin.id)).admin.schools.list({ search: "Escola do Interruptor", page: 1, pageSize: 10 } as never);
    expect(listed.items[0]).toMatchObject({ publicHidden: true });
    await (await h.caller(admin.id)).admin.schools.setPublicHidden({ id: school.id, hidden: false });
    await eventually(async () => expect((await page(path)).status).toBe(200));
    await expect((await h.caller(admin.id)).admin.schools.setPublicHidden({ id: "00000000-0000-4000-8000-000000000000", hidden: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    void createDiscount;
  });
});
