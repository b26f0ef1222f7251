import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { schema, type DatabaseHandle } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./support/axe";
import { DEMO, loginAs, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { activate, chooseFileByKeyboard, chooseOption, expectDialogTrapsFocus, expectFocusVisible, tabTo, typeInto } from "./support/keyboard";
import { seedBenefit, seedCompleteParent, seedPlan, seedSchool, seedStaff, seedUser, seedVoucher } from "./support/seed";

/**
 * Issue 20, keyboard only: each journey is done with key presses alone (locators only say which
 * element should have focus, never click), focus is visible at every Tab stop, and the dialogs on
 * the way hold focus and give it back. Where a journey reaches a state the page sweep cannot
 * open (a dialog, a preview), axe-core checks it there.
 */

let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

const run = `${Date.now() % 1_000_000}`;
const files = mkdtempSync(path.join(tmpdir(), "elo-keyboard-"));
const toast = (page: Page, text: string) => page.locator(".mantine-Notification-root").filter({ hasText: text }).first().waitFor();
const userId = async (email: string) => (await db.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)))[0]!.id;

async function expectNoAxeViolations(page: Page, where: string) {
  expect(describeViolations(where, await axeViolations(page))).toEqual([]);
}

describe("keyboard only", () => {
  it("signs up from the landing page, past the promotional dialog", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    // The promotional dialog opens by itself a second after the page: it takes focus and gives
    // it back to where the person was.
    const first = page.locator("header a").first();
    await tabTo(page, first);
    const promo = page.getByRole("dialog");
    await promo.waitFor();
    await expectNoAxeViolations(page, "promo dialog");
    await expectDialogTrapsFocus(page, promo, first);

    await activate(page, page.locator("header").getByRole("link", { name: "Criar conta" }).first());
    await page.waitForURL((u) => u.pathname === "/signup");
    const form = page.locator("form");
    await form.getByRole("combobox", { name: "Estado (UF)" }).waitFor();
    await chooseOption(page, form.getByRole("combobox", { name: "Estado (UF)" }), "SP - São Paulo", "SP");
    await chooseOption(page, form.getByRole("combobox", { name: "Cidade" }), "São Paulo", "São Paulo");
    await chooseOption(page, form.getByRole("combobox", { name: "Bairro" }), "Pinheiros", "Pinheiros");
    await typeInto(page, form.getByLabel("Nome completo"), "Teclado Silva");
    const email = `teclado.${run}@teste.com.br`;
    await typeInto(page, form.getByLabel("Email"), email);
    await typeInto(page, form.getByLabel("Senha", { exact: true }), "Girassol-Azul-42");
    await activate(page, form.getByLabel("Li e aceito os Termos de Uso e a Política de Privacidade"), "Space");
    await activate(page, form.getByLabel(/Autorizo o processamento dos meus dados/), "Space");
    await activate(page, form.getByRole("button", { name: "Criar conta" }));
    await toast(page, "Conta criada com sucesso!");
    await page.waitForURL((u) => u.pathname === "/home", { timeout: 10_000 });
    expect(await db.db.select().from(schema.users).where(eq(schema.users.email, email))).toHaveLength(1);
    await context.close();
  });

  it("completes a parent's profile, with the request-school dialog on the way", async () => {
    const parent = await seedUser(db.db, { profileType: "parent", fullName: `Responsável Teclado ${run}` });
    const { page, context } = await newPage(browser);
    await loginAs(context, parent);
    await page.goto("/meus-dados");
    await page.getByText("Dados do responsável").waitFor();

    await chooseOption(page, page.getByRole("combobox", { name: "Parentesco" }), "Pai");
    await typeInto(page, page.getByLabel("WhatsApp"), "11987654321");
    await typeInto(page, page.getByLabel("Nome do aluno"), "Pedro Teclado");
    await typeInto(page, page.getByLabel("Data de nascimento"), "10/03/2015");
    await page.keyboard.press("Escape");
    await typeInto(page, page.getByLabel("CPF do aluno"), "52998224725");
    await typeInto(page, page.getByLabel("Endereço", { exact: true }), "Rua dos Pinheiros, 100");
    await typeInto(page, page.getByLabel("Bairro", { exact: true }).first(), "Pinheiros");
    await typeInto(page, page.getByLabel("CEP"), "05422000");
    await activate(page, page.getByRole("button", { name: "Salvar", exact: true }));
    await toast(page, "Dados salvos");

    const main = page.getByRole("tabpanel");
    await chooseOption(page, main.getByRole("combobox", { name: "UF" }), "SP - São Paulo", "SP");
    await chooseOption(page, main.getByRole("combobox", { name: "Cidade" }), "São Paulo", "São Paulo");
    await chooseOption(page, main.getByRole("combobox", { name: "Bairro" }), "Pinheiros", "Pinheiros");

    // 'Cadastrar escola' opens a dialog that holds focus and returns it to the button.
    const requestButton = main.getByRole("button", { name: /Cadastrar escola/ });
    await activate(page, requestButton);
    const dialog = page.getByRole("dialog", { name: "Cadastrar escola" });
    await dialog.waitFor();
    await expectNoAxeViolations(page, "request-school dialog");
    await expectDialogTrapsFocus(page, dialog, requestButton);

    await chooseOption(page, main.getByRole("combobox", { name: "Escola" }), "Colégio Horizonte", "Horizonte");
    await activate(page, main.getByRole("button", { name: "Salvar escola" }));
    await toast(page, "Escola salva");

    const proof = path.join(files, "comprovante.pdf");
    writeFileSync(proof, "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    await chooseFileByKeyboard(page, main.getByRole("button", { name: /Comprovante de matrícula/ }), proof);
    await activate(page, main.getByRole("button", { name: "Enviar" }));
    await toast(page, "Comprovante enviado");
    await page.getByTestId("profile-status").filter({ hasText: "Cadastro completo" }).waitFor();
    const [saved] = await db.db.select().from(schema.profiles).where(eq(schema.profiles.userId, parent));
    expect(saved).toMatchObject({ relationshipType: "Pai", studentName: "Pedro Teclado", studentBirthDate: "2015-03-10", profileCompleted: true, enrollmentProofSubmitted: true });
    await context.close();
  });

  it("claims a benefit after signing in", async () => {
    // A neighborhood of its own: the benefit reaches this parent only, not other scenarios' marketplaces.
    const hood = `Vila Teclado ${run}`;
    const school = await seedSchool(db.db, `Escola Teclado ${run}`, "Idiomas", hood);
    await seedPlan(db.db, school.id);
    await seedBenefit(db.db, school, `Inglês pelo Teclado ${run}`);
    const email = `pais.teclado.${run}@teste.com.br`;
    const parent = await seedCompleteParent(db.db, `Responsável Login ${run}`, await seedSchool(db.db, `Escola Base Teclado ${run}`, "Ed. Básica", hood));
    const { hashPassword } = await import("../../server/src/auth/password");
    await db.db.update(schema.users).set({ email, passwordHash: await hashPassword("Girassol-Azul-42") }).where(eq(schema.users.id, parent));

    const { page, context } = await newPage(browser);
    await page.goto("/login");
    await typeInto(page, page.getByLabel("Email"), email);
    await typeInto(page, page.getByLabel("Senha", { exact: true }), "Girassol-Azul-42");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/home");
    const card = page.getByTestId("benefit-card").filter({ hasText: `Inglês pelo Teclado ${run}` });
    await activate(page, card.getByRole("button", { name: "Aproveitar benefício" }));
    await page.waitForURL((u) => u.pathname === "/confirmacao-desconto");
    const [voucher] = await db.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.userId, parent));
    await page.getByText(voucher!.voucherCode).first().waitFor();
    // The next stop after the page changed is still a visible one.
    await page.keyboard.press("Tab");
    await expectFocusVisible(page, "confirmation page");
    await context.close();
  });

  it("confirms a voucher at the desk, reached from the school's home through the account menu", async () => {
    const school = await seedSchool(db.db, `Escola Balcão ${run}`, "Idiomas", "Moema");
    await seedPlan(db.db, school.id);
    const staff = await seedStaff(db.db, school, `Secretária Teclado ${run}`);
    const benefit = await seedBenefit(db.db, school, "Turma do Balcão");
    const parent = await seedCompleteParent(db.db, `Responsável Balcão ${run}`);
    const voucher = await seedVoucher(db.db, benefit, parent);

    const { page, context } = await newPage(browser);
    await loginAs(context, staff);
    await page.goto("/home-instituicao");
    const details = page.getByRole("button", { name: "Detalhes" });
    await activate(page, details);
    const dialog = page.getByRole("dialog");
    await dialog.getByText(voucher.voucherCode).waitFor();
    await expectNoAxeViolations(page, "reserved details dialog");
    await expectDialogTrapsFocus(page, dialog, details);

    await activate(page, page.getByRole("button", { name: "Minha Conta" }), "Enter");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    const item = menu.getByRole("menuitem", { name: "Validar vouchers" });
    for (let i = 0; i < 12 && !(await item.evaluate((el) => el === el.ownerDocument.activeElement)); i++) await page.keyboard.press("ArrowDown");
    await expectFocusVisible(page, "account menu");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/painel-escola");

    await typeInto(page, page.getByLabel("Código do voucher"), voucher.voucherCode);
    await page.keyboard.press("Enter");
    const result = page.getByTestId("voucher-result");
    await result.getByText(voucher.voucherCode).waitFor();
    await expectNoAxeViolations(page, "voucher found");
    await activate(page, result.getByRole("button", { name: "Confirmar utilização" }));
    await toast(page, "Utilização confirmada!");
    await expect.poll(async () => (await db.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, voucher.id)))[0]!.status).toBe("utilizado");
    await context.close();
  });

  it("imports a CSV of schools as the admin", async () => {
    const csv = path.join(files, "escolas.csv");
    const name = `Escola Importada pelo Teclado ${run}`;
    writeFileSync(csv, `name;categoria;modalidade;city;uf;neighborhood;address;phone;whatsapp;cep\r\n${name};Idiomas;Inglês;São Paulo;SP;Pinheiros;Rua A, 1;(11) 3333-1000;;05422-001\r\n`);
    const { page, context } = await newPage(browser);
    await loginAs(context, await userId(DEMO.admin.email));
    await page.goto("/admin-escolas");
    await page.getByRole("heading", { name: "Gerenciar Escolas" }).waitFor();
    await chooseFileByKeyboard(page, page.getByRole("button", { name: "Escolher arquivo CSV" }), csv);
    const preview = page.getByTestId("csv-preview");
    await preview.locator("tbody tr").first().waitFor();
    await expectNoAxeViolations(page, "csv preview");
    await snap(page, "keyboard-csv-preview-desktop");
    await activate(page, preview.getByRole("button", { name: "Importar 1 escola" }));
    await toast(page, "Importação concluída!");
    expect(await db.db.select().from(schema.schools).where(eq(schema.schools.name, name))).toHaveLength(1);
    await context.close();
  });
});
