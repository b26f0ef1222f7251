import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { schema, type Database } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, launchBrowser, loginAs, newPage, PHONE, snap } from "./support/browser";
import { e2eDatabase } from "./support/db";
import { seedUser } from "./support/seed";

/** A parent with only a name (signed in with `loginAs`). */
const seedParent = (db: Database, label: string) =>
  seedUser(db, { profileType: "parent", fullName: "Maria Oliveira" }, `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@teste.com.br`);

const files = mkdtempSync(path.join(tmpdir(), "elo-e2e-files-"));
/** A real 64x64 PNG of one colour on disk, for file pickers. */
function pngFile(name: string, [r, g, b]: [number, number, number]) {
  const size = 64;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
  const file = path.join(files, name);
  writeFileSync(file, png);
  return file;
}
function pdfFile(name: string) {
  const file = path.join(files, name);
  writeFileSync(file, "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
  return file;
}

/** Picks an option of a Mantine searchable Select by typing part of it. */
async function choose(page: Page, label: string | RegExp, typed: string, option: string | RegExp, scope?: Page | ReturnType<Page["locator"]>) {
  const root = scope ?? page;
  // A required field's label ends with an asterisk.
  const name = typeof label === "string" ? new RegExp(`^${label}( \\*)?$`) : label;
  const input = root.getByRole("combobox", { name }).first();
  await input.click();
  if (await input.isEditable()) await input.fill(typed);
  await page.getByRole("option", { name: option }).first().click();
}

async function toast(page: Page, text: string) {
  await page.locator(".mantine-Notification-root").filter({ hasText: text }).first().waitFor();
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe("/meus-dados for a new parent", () => {
  it("completes the profile with masked fields, the school cascade and a proof", async () => {
    const handle = await e2eDatabase();
    const userId = await seedParent(handle.db, "novo.pai");
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, userId);
    await page.goto("/meus-dados");
    await page.getByText("Dados do responsável").waitFor();
    await expect(page.getByTestId("profile-status").textContent()).resolves.toBe("Cadastro incompleto");

    // Live masks: digits typed become the spec's formats.
    await page.getByLabel("WhatsApp").pressSequentially("11987654321");
    await expect(page.getByLabel("WhatsApp").inputValue()).resolves.toBe("(11) 98765-4321");
    await page.getByLabel("CPF do aluno").pressSequentially("12345678900");
    await expect(page.getByLabel("CPF do aluno").inputValue()).resolves.toBe("123.456.789-00");
    await page.getByLabel("CEP").pressSequentially("05422000");
    await expect(page.getByLabel("CEP").inputValue()).resolves.toBe("05422-000");

    await choose(page, "Parentesco", "Mãe", "Mãe");
    await page.getByLabel("Nome do aluno").fill("Ana Oliveira");
    await page.getByLabel("Data de nascimento").fill("10/03/2015");
    await page.getByLabel("Endereço").fill("Rua dos Pinheiros, 100");
    await page.getByLabel("Bairro", { exact: true }).first().fill("Pinheiros");

    // An invalid CPF: the spec's toast, the field's message, nothing saved.
    await page.getByRole("button", { name: "Salvar", exact: true }).click();
    await toast(page, "Erro de validação");
    await page.getByText("CPF inválido").waitFor();
    const [before] = await handle.db.select().from(schema.profiles).where(eq(schema.profiles.userId, userId));
    expect(before!.studentName).toBeNull();

    await page.getByLabel("CPF do aluno").fill("");
    await page.getByLabel("CPF do aluno").pressSequentially("52998224725");
    await expect(page.getByLabel("CPF do aluno").inputValue()).resolves.toBe("529.982.247-25");
    await page.getByRole("button", { name: "Salvar", exact: true }).click();
    await toast(page, "Dados salvos");

    // The cascade on the main-school tab.
    const main = page.getByRole("tabpanel");
    await choose(page, "UF", "SP", /^SP - São Paulo$/, main);
    await choose(page, "Cidade", "São Paulo", /^São Paulo$/, main);
    await choose(page, "Bairro", "Pinheiros", /^Pinheiros$/, main);
    await choose(page, "Escola", "Horizonte", "Colégio Horizonte", main);
    await snap(page, "profile-desktop-cascade");
    await main.getByRole("button", { name: "Salvar escola" }).click();
    await toast(page, "Escola salva");
    await page.getByTestId("profile-status").filter({ hasText: "Cadastro completo" }).waitFor();

    // Changing the state clears city, neighborhood and school.
    await choose(page, "UF", "RJ", /^RJ - Rio de Janeiro$/, main);
    await expect(main.getByLabel("Cidade", { exact: true }).inputValue()).resolves.toBe("");
    await expect(main.getByLabel("Escola", { exact: true }).isDisabled()).resolves.toBe(true);

    // 'Enviar' without a file, then a proof.
    await main.getByRole("button", { name: "Enviar" }).click();
    await toast(page, "Selecione um arquivo antes de enviar");
    await main.locator('input[type="file"]').setInputFiles(pdfFile("comprovante.pdf"));
    await main.getByRole("button", { name: "Enviar" }).click();
    await toast(page, "Comprovante enviado");
    await main.getByText("Ver arquivo").waitFor();
    // A proof is a private document: it downloads under a fixed name, never opens in place (decision 110).
    const [download] = await Promise.all([page.waitForEvent("download"), main.getByText("Ver arquivo").click()]);
    expect(download.suggestedFilename()).toBe("comprovante.pdf");
    expect(page.url()).toContain("/meus-dados");

    const [after] = await handle.db.select().from(schema.profiles).where(eq(schema.profiles.userId, userId));
    expect(after).toMatchObject({ phone: "11987654321", studentCpf: "52998224725", studentZipCode: "05422000", schoolName: "Colégio Horizonte", profileCompleted: true, enrollmentProofSubmitted: true });
    await snap(page, "profile-desktop-complete");
    await handle.close();
    await context.close();
  });

  it("requests a missing school, then finds it as 'Escola encontrada' (phone width)", async () => {
    const handle = await e2eDatabase();
    const userId = await seedParent(handle.db, "pede.escola");
    const { page, context } = await newPage(browser, PHONE);
    await loginAs(context, userId);
    await page.goto("/meus-dados");
    await page.getByText("Matrículas").waitFor();
    const main = page.getByRole("tabpanel");
    await choose(page, "UF", "SP", /^SP - São Paulo$/, main);
    await choose(page, "Cidade", "São Paulo", /^São Paulo$/, main);
    await choose(page, "Bairro", "Moema", /^Moema$/, main);
    const name = `Escola Sabiá ${Date.now()}`;

    await main.getByRole("button", { name: /Cadastrar escola/ }).click();
    const dialog = page.getByRole("dialog", { name: "Cadastrar escola" });
    await dialog.getByRole("button", { name: "Enviar solicitação" }).click();
    await toast(page, "Nome inválido");
    await dialog.getByLabel("Nome da escola").fill(name);
    await snap(page, "profile-phone-request-school");
    await dialog.getByRole("button", { name: "Enviar solicitação" }).click();
    await toast(page, "Solicitação enviada");
    await expect(main.getByLabel("Escola", { exact: true }).inputValue()).resolves.toBe(name);

    // A second try with other case and accents finds the same school.
    await main.getByRole("button", { name: /Cadastrar escola/ }).click();
    await dialog.getByLabel("Nome da escola").fill(name.toUpperCase().replace("SABIÁ", "SABIA"));
    await dialog.getByRole("button", { name: "Enviar solicitação" }).click();
    await toast(page, "Escola encontrada");
    const rows = await handle.db.select().from(schema.schools).where(eq(schema.schools.name, name));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.origin).toBe("parent_request");
    await snap(page, "profile-phone");
    await handle.close();
    await context.close();
  });

  it("changes the avatar in a second tab without reload", async () => {
    const handle = await e2eDatabase();
    const userId = await seedParent(handle.db, "avatar");
    await handle.close();
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, userId);
    const other = await context.newPage();
    await other.goto("/home");
    const headerAvatar = other.getByRole("button", { name: "Minha Conta" }).locator("img");
    await expect(headerAvatar.count()).resolves.toBe(0);

    await page.goto("/meus-dados");
    await page.getByRole("button", { name: "Alterar foto" }).waitFor();
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Alterar foto" }).click();
    await (await chooser).setFiles(pngFile("foto.png", [255, 0, 0]));
    await toast(page, "Foto atualizada");

    // The other tab was never reloaded: its header picks up the new signed address live.
    await headerAvatar.waitFor({ timeout: 10_000 });
    const src = await headerAvatar.getAttribute("src");
    expect(src).toMatch(new RegExp(`/files/avatars/${userId}/avatar-`));
    await snap(other, "profile-second-tab-avatar");
    await context.close();
  });
});

describe("/add-escola", () => {
  it("adds an other enrollment through the cascade and lists it", async () => {
    const handle = await e2eDatabase();
    const userId = await seedParent(handle.db, "add.escola");
    await handle.close();
    const { page, context } = await newPage(browser, PHONE);
    await loginAs(context, userId);
    await page.goto("/add-escola");
    await page.getByRole("button", { name: "Adicionar escola" }).click();
    await page.getByRole("button", { name: "Adicionar", exact: true }).click();
    await toast(page, "Por favor, selecione uma escola.");
    await choose(page, "UF", "SP", /^SP - São Paulo$/);
    await choose(page, "Cidade", "São Paulo", /^São Paulo$/);
    await choose(page, "Bairro", "Pinheiros", /^Pinheiros$/);
    await choose(page, "Escola", "Fluent", "Fluent English School");
    await page.getByLabel("Número da matrícula").fill("2026-0042");
    await choose(page, "Período", "Tar", "Tarde");
    await page.getByLabel("Turma (número ou nome)").fill("Teens B2");
    await page.getByLabel("Data de início").fill("01/02/2026");
    await page.getByLabel("Data de término").fill("10/12/2026");
    await page.getByRole("button", { name: "Adicionar", exact: true }).click();
    await toast(page, "Matrícula adicionada");
    await page.getByTestId("enrollment-row").filter({ hasText: "Fluent English School" }).waitFor();
    await page.getByText("Matrícula 2026-0042 · Tarde · Turma Teens B2 · 01/02/2026 a 10/12/2026").waitFor();
    await snap(page, "add-escola-phone");
    await context.close();
  });
});
