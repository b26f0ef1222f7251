import { readdir } from "node:fs/promises";
import path from "node:path";
import { schema } from "@elo/db";
import { LIMITS, schoolMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { pdfBytes, pngBytes, uploadForm } from "../support/factories/files";
import { sessionCookie } from "../support/factories/sessions";
import { createSchool, createStaff, nicheIds, place } from "../support/factories/schools";
import { createUser } from "../support/factories/users";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

async function upload(userId: string, bytes: Buffer, name: string) {
  const res = await fetch(`${server.url}/api/uploads/school-logo`, {
    method: "POST",
    headers: { cookie: await sessionCookie(h, userId), origin: TEST_ORIGIN },
    body: uploadForm(bytes, name),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The files stored for a school in the public logo bucket. */
async function storedLogos(schoolId: string) {
  try {
    return (await readdir(path.join(h.config.DATA_DIR, "storage", "school_logos", schoolId))).filter((f) => !f.endsWith(".type"));
  } catch {
    return [];
  }
}

const logoOf = async (schoolId: string) => (await h.db.select({ logoUrl: schema.schools.logoUrl }).from(schema.schools).where(eq(schema.schools.id, schoolId)))[0]!.logoUrl;

describe("POST /api/uploads/school-logo", () => {
  it("lets approved staff upload a logo that is then served, and replaces the old file", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const first = await upload(staff.id, pngBytes(), "logo.png");
    expect(first.status).toBe(200);
    expect(first.body.logoUrl).toMatch(new RegExp(`^/files/school_logos/${school.id}/logo-\\d+-[0-9a-f]{8}\\.png$`));
    const served = await fetch(`${server.url}${first.body.logoUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain("image/png");
    expect(await logoOf(school.id)).toBe(first.body.logoUrl.replace("/files/school_logos/", ""));

    const second = await upload(staff.id, pngBytes(512), "nova.png");
    expect(second.status).toBe(200);
    expect(await storedLogos(school.id)).toEqual([path.basename(second.body.logoUrl)]);
    expect((await fetch(`${server.url}${first.body.logoUrl}`)).status).toBe(404);
    expect((await (await h.caller(staff.id)).school.data.get()).logoUrl).toBe(second.body.logoUrl);
  });

  it("refuses a pending member, another school's staff and a parent, and stores nothing", async () => {
    const school = await createSchool(h);
    const other = await createSchool(h);
    const pending = await createStaff(h, school.id, "pending");
    const otherStaff = await createStaff(h, other.id);
    const parent = await createUser(h, { profile: { schoolId: school.id } });

    const asPending = await upload(pending.id, pngBytes(), "logo.png");
    expect(asPending.status).toBe(403);
    expect(asPending.body.error.title).toMatch(/aguardando aprovação/);
    expect((await upload(parent.id, pngBytes(), "logo.png")).status).toBe(403);
    // Other school's staff can only ever reach their own school: the target comes from the membership.
    expect((await upload(otherStaff.id, pngBytes(), "logo.png")).status).toBe(200);

    expect(await logoOf(school.id)).toBeNull();
    expect(await storedLogos(school.id)).toEqual([]);
    expect(await storedLogos(other.id)).toHaveLength(1);
  });

  it("refuses a file over 2 MB and a non-image, and stores nothing", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const big = await upload(staff.id, pngBytes(LIMITS.schoolLogoMaxBytes + 1), "grande.png");
    expect(big.status).toBe(413);
    expect(big.body.error.description).toBe(schoolMessages.logoTooLarge);
    const pdf = await upload(staff.id, pdfBytes(), "logo.png");
    expect(pdf.status).toBe(415);
    expect(await storedLogos(school.id)).toEqual([]);
    expect(await logoOf(school.id)).toBeNull();
    expect((await upload(staff.id, pngBytes(LIMITS.schoolLogoMaxBytes), "limite.png")).status).toBe(200);
  });

  it("needs a session", async () => {
    const res = await fetch(`${server.url}/api/uploads/school-logo`, { method: "POST", headers: { origin: TEST_ORIGIN }, body: uploadForm(pngBytes(), "a.png") });
    expect(res.status).toBe(401);
  });
});

describe("school.data.deleteLogo", () => {
  it("clears the logo and removes the stored file", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const up = await upload(staff.id, pngBytes(), "logo.png");
    expect(await storedLogos(school.id)).toHaveLength(1);
    await (await h.caller(staff.id)).school.data.deleteLogo();
    expect(await logoOf(school.id)).toBeNull();
    expect(await storedLogos(school.id)).toEqual([]);
    expect((await fetch(`${server.url}${up.body.logoUrl}`)).status).toBe(404);
  });
});

describe("school.data.save: server checks", () => {
  async function setup() {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const sp = await place(h, "SP", "São Paulo", "Pinheiros");
    const niche = await nicheIds(h, "Idiomas");
    const valid = { name: school.name, stateId: sp.stateId, cityId: sp.cityId, neighborhoodId: sp.neighborhoodId, ...niche };
    return { school, api: await h.caller(staff.id), sp, niche, valid };
  }

  it("saves consistent data and derives uf/city/neighborhood names from the ids", async () => {
    const { school, api, valid } = await setup();
    const saved = await api.school.data.save({ ...valid, phone: "(11) 3333-4444", whatsapp: "(11) 98765-4321", cep: "01310-100", address: "Rua A, 1" });
    expect(saved).toMatchObject({ phone: "1133334444", whatsapp: "11987654321", cep: "01310100" });
    const [row] = await h.db.select().from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(row).toMatchObject({ uf: "SP", city: "São Paulo", neighborhood: "Pinheiros" });
  });

  it("refuses a neighborhood outside the city, a city outside the state, and a modality of another category", async () => {
    const { school, api, valid, niche } = await setup();
    const rj = await place(h, "RJ", "Rio de Janeiro", "Copacabana");
    const other = await nicheIds(h, "Ed. Básica");
    const bad = [
      { ...valid, neighborhoodId: rj.neighborhoodId },
      { ...valid, cityId: rj.cityId },
      { ...valid, stateId: rj.stateId },
      { ...valid, categoryId: other.categoryId, modalityId: niche.modalityId },
    ];
    for (const input of bad) {
      await expect(api.school.data.save(input)).rejects.toMatchObject({ code: "BAD_REQUEST", toast: { title: "Erro ao salvar", description: schoolMessages.dataSaveErrorDescription } });
    }
    const [row] = await h.db.select().from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(row).toMatchObject({ uf: "SP", city: "São Paulo", categoryId: school.categoryId });
  });

  it("refuses invalid phone, WhatsApp and CEP with the spec's messages", async () => {
    const { api, valid } = await setup();
    await expect(api.school.data.save({ ...valid, phone: "(11) 1111-1111" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("Telefone inválido") });
    await expect(api.school.data.save({ ...valid, whatsapp: "(01) 98765-4321" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("Telefone inválido") });
    await expect(api.school.data.save({ ...valid, whatsapp: "(11) 88765-4321" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.school.data.save({ ...valid, cep: "00000-000" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("CEP inválido") });
  });
});
