import { schema } from "@elo/db";
import { adminMessages, csvMessages } from "@elo/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { csvFixture, csvForm } from "../support/factories/admin";
import { createSchool } from "../support/factories/schools";
import { createAdmin } from "../support/factories/users";

let h: Harness;
let admin: Awaited<ReturnType<Harness["caller"]>>;
beforeAll(async () => {
  h = await createHarness();
  admin = await h.caller((await createAdmin(h)).id);
});
afterAll(() => h.close());

const preview = (fixture: string) => admin.admin.csv.preview(csvForm(csvFixture(fixture)));
const toastOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { toast?: { title: string; description?: string } }) => e.toast ?? null,
  );

describe("admin.csv.preview", () => {
  it("reads a UTF-8 file with a byte-order mark", async () => {
    const { rows, counts } = await preview("bom.csv");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ index: 1, name: "Colégio BOM Teste", status: "valid", address: "Rua A, 10", selectable: true });
    expect(counts).toEqual({ valid: 1, warning: 0, invalid: 0 });
  });

  it("detects semicolons, skips empty lines and resolves names ignoring case and accents", async () => {
    const { rows } = await preview("semicolon.csv");
    expect(rows.map((r) => r.name)).toEqual(["Escola Ponto e Vírgula", "Escola Segunda Linha"]);
    expect(rows[0]).toMatchObject({ address: "Rua B, 20", status: "valid", message: "" });
    expect(rows[1]).toMatchObject({ status: "valid" });
  });

  it("keeps 500 rows of a longer file and says it was truncated", async () => {
    const result = await preview("rows-501.csv");
    expect(result.rows).toHaveLength(500);
    expect(result.truncated).toBe(true);
    expect(result.rows.at(-1)!.name).toBe("Escola Volume 500");
  });

  it("warns about names repeated in the file (case- and accent-insensitive) and only the first is selectable", async () => {
    const { rows } = await preview("duplicates.csv");
    expect(rows[0]).toMatchObject({ status: "valid", selectable: true });
    expect(rows[1]).toMatchObject({ status: "warning", selectable: false });
    expect(rows[1]!.message).toContain(adminMessages.csvDuplicateName);
    expect(rows[2]).toMatchObject({ status: "valid", selectable: true });
  });

  it("names the UF, city and neighborhood it could not find, or found elsewhere", async () => {
    const { rows } = await preview("unknown-city.csv");
    expect(rows.map((r) => r.status)).toEqual(["warning", "warning", "warning", "warning"]);
    expect(rows[0]!.message).toContain(csvMessages.cityNotFound("Cidadelândia do Norte", "SP"));
    expect(rows[1]!.message).toContain(csvMessages.cityOtherState("Curitiba", "PR"));
    expect(rows[2]!.message).toContain(csvMessages.stateNotFound("ZZ"));
    expect(rows[3]!.message).toContain(csvMessages.neighborhoodNotFound("Bairro Que Não Existe", "São Paulo"));
  });

  it("infers the category from a lone modality and warns about wrong niches", async () => {
    const { rows } = await preview("modality-only.csv");
    expect(rows[0]).toMatchObject({ status: "valid", message: csvMessages.categoryInferred("Tecnologia") });
    expect(rows[1]).toMatchObject({ status: "warning", message: csvMessages.modalityOtherCategory("Natação", "Idiomas") });
    expect(rows[2]).toMatchObject({ status: "warning", message: csvMessages.categoryNotFound("Astronomia") });
  });

  it("neutralises cells that start like a spreadsheet formula", async () => {
    const { rows } = await preview("formula.csv");
    expect(rows[0]!.status).toBe("warning");
    expect(rows[0]!.message).toContain(csvMessages.formulaNeutralised("name"));
    expect(rows[1]!.message).toContain(csvMessages.formulaNeutralised("address"));
    expect(rows[1]!.message).toContain(csvMessages.phoneInvalid("=1+1"));
    // A +55 WhatsApp number is a phone, not a formula.
    expect(rows[1]!.message).not.toContain("WhatsApp");
    await admin.admin.csv.import({ rows: rows.map(({ status: _s, message: _m, selectable: _x, ...raw }) => raw) });
    const stored = await h.db.select({ name: schema.schools.name, address: schema.schools.address, phone: schema.schools.phone, whatsapp: schema.schools.whatsapp }).from(schema.schools).where(sql`${schema.schools.origin} = 'csv'`);
    for (const s of stored) {
      expect(s.name).not.toMatch(/^[=+\-@]/);
      expect(s.address ?? "").not.toMatch(/^[=+\-@]/);
    }
    expect(stored.find((s) => s.name === "Escola Endereço Fórmula")).toMatchObject({ address: "SUM(1+1)", phone: null, whatsapp: "11987654321" });
  });

  it("marks a row without name invalid and bad phones, WhatsApp and CEP as warnings", async () => {
    const { rows, counts } = await preview("invalid-rows.csv");
    expect(rows[0]).toMatchObject({ status: "invalid", message: adminMessages.csvNameRequired, selectable: false });
    expect(rows[1]!.status).toBe("warning");
    expect(rows[1]!.message).toContain(csvMessages.phoneInvalid("(00) 1111-1111"));
    expect(rows[1]!.message).toContain(csvMessages.whatsappInvalid("123"));
    expect(rows[1]!.message).toContain(csvMessages.cepInvalid("00000-000"));
    expect(rows[2]!.status).toBe("valid");
    expect(counts).toEqual({ valid: 1, warning: 1, invalid: 1 });
  });

  it("refuses an empty file, a malformed one, a non-UTF-8 one and a non-.csv name", async () => {
    expect(await toastOf(preview("empty.csv"))).toEqual({ title: adminMessages.csvEmptyTitle, description: adminMessages.csvEmptyDescription });
    expect(await toastOf(admin.admin.csv.preview(csvForm("")))).toEqual({ title: adminMessages.csvEmptyTitle, description: adminMessages.csvEmptyDescription });
    expect((await toastOf(preview("malformed.csv")))!.title).toBe(adminMessages.csvParseError(csvMessages.quoteNotClosed(2)));
    expect((await toastOf(preview("wrong-columns.csv")))!.title).toBe(adminMessages.csvParseError(csvMessages.columnCount(2, 3, 10)));
    expect((await toastOf(preview("latin1.csv")))!.title).toBe(adminMessages.csvParseError(csvMessages.notUtf8));
    expect((await toastOf(admin.admin.csv.preview(csvForm("name\nX\n", "escolas.txt"))))!.title).toBe(adminMessages.csvNotCsv);
    expect((await toastOf(admin.admin.csv.preview(csvForm("cidade\nX\n"))))!.title).toBe(adminMessages.csvParseError(csvMessages.missingNameColumn));
  });

  it("refuses a file over 5 MB", async () => {
    const big = "name\n" + "x".repeat(5 * 1024 * 1024);
    expect((await toastOf(admin.admin.csv.preview(csvForm(big))))!.title).toBe(adminMessages.csvTooLarge);
  });

  it("warns that a school with the same name exists and will be updated", async () => {
    await createSchool(h, { name: "Colégio Já Existe" });
    const { rows } = await admin.admin.csv.preview(csvForm("name,city,uf\ncolegio ja existe,São Paulo,SP\n"));
    expect(rows[0]).toMatchObject({ status: "warning", message: adminMessages.csvExistingSchool });
  });
});

describe("admin.csv.import", () => {
  it("creates, then updates on a second import without duplicating", async () => {
    const { rows } = await preview("semicolon.csv");
    const raw = rows.map(({ status: _s, message: _m, selectable: _x, ...r }) => r);
    expect(await admin.admin.csv.import({ rows: raw })).toMatchObject({ created: 2, updated: 0, errors: 0 });
    expect(await admin.admin.csv.import({ rows: raw })).toMatchObject({ created: 0, updated: 2, errors: 0 });
    const stored = await h.db.select().from(schema.schools).where(eq(schema.schools.nameKey, "escola ponto e virgula"));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ uf: "SP", city: "São Paulo", neighborhood: "Pinheiros", phone: "1133335555", cep: "01310100", origin: "csv" });
    expect(stored[0]!.categoryId).not.toBeNull();
    expect(stored[0]!.modalityId).not.toBeNull();
    const second = await preview("semicolon.csv");
    expect(second.rows.every((r) => r.message.includes(adminMessages.csvExistingSchool))).toBe(true);
  });

  it("keeps stored values for cells the file leaves empty", async () => {
    const school = await createSchool(h, { name: "Escola Com Telefone" });
    await h.db.update(schema.schools).set({ phone: "1144445555" }).where(eq(schema.schools.id, school.id));
    await admin.admin.csv.import({ rows: [{ index: 1, name: "Escola com telefone", categoria: "", modalidade: "", city: "", uf: "", neighborhood: "", address: "Rua Nova, 1", phone: "", whatsapp: "", cep: "" }] });
    const [after] = await h.db.select().from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(after).toMatchObject({ phone: "1144445555", address: "Rua Nova, 1", city: "São Paulo" });
  });

  it("counts a failing row and imports the rest", async () => {
    await h.dbHandle.db.execute(sql`alter table schools add constraint test_refuse_one check (name_key <> 'escola que falha')`);
    try {
      const result = await admin.admin.csv.import({
        rows: [
          { index: 1, name: "Escola Antes da Falha", categoria: "", modalidade: "", city: "", uf: "", neighborhood: "", address: "", phone: "", whatsapp: "", cep: "" },
          { index: 2, name: "Escola Que Falha", categoria: "", modalidade: "", city: "", uf: "", neighborhood: "", address: "", phone: "", whatsapp: "", cep: "" },
          { index: 3, name: "", categoria: "", modalidade: "", city: "", uf: "", neighborhood: "", address: "", phone: "", whatsapp: "", cep: "" },
          { index: 4, name: "Escola Depois da Falha", categoria: "", modalidade: "", city: "", uf: "", neighborhood: "", address: "", phone: "", whatsapp: "", cep: "" },
        ],
      });
      expect(result).toMatchObject({ created: 2, updated: 0, errors: 2 });
      expect(result.results.map((r) => r.outcome)).toEqual(["created", "error", "error", "created"]);
    } finally {
      await h.dbHandle.db.execute(sql`alter table schools drop constraint test_refuse_one`);
    }
  });

  it("serves the template with a byte-order mark, the ten columns and two example rows", async () => {
    const { fileName, content } = await admin.admin.csv.template();
    expect(fileName).toBe("template_escolas.csv");
    expect(content.charCodeAt(0)).toBe(0xfeff);
    const lines = content.slice(1).trim().split(/\r\n/);
    expect(lines[0]).toBe("name,categoria,modalidade,city,uf,neighborhood,address,phone,whatsapp,cep");
    expect(lines).toHaveLength(3);
    const { rows, counts } = await admin.admin.csv.preview(csvForm(content));
    expect(rows).toHaveLength(2);
    expect(counts.invalid).toBe(0);
  });
});
