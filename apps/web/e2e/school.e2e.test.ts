import { schema, type DatabaseHandle } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO, loginAs, newPage, PHONE, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { seedSchool, seedUser } from "./support/seed";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

/** Picks an option of a Mantine Select by its label (typing first when it is searchable). */
async function pick(page: Page, label: string, option: string, type: boolean | string = false) {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  if (type) await input.fill(typeof type === "string" ? type : option);
  await page.getByRole("option", { name: option, exact: true }).click();
}

const ONE_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

describe("institution side", () => {
  it("requests a school, is approved, fills the school data, chooses Silver, publishes a benefit and confirms a voucher", async () => {
    const school = await seedSchool(db.db, `Academia Ritmo ${Date.now()}`, "Outros", "Moema");
    const { page, context } = await newPage(browser);
    page.setDefaultTimeout(15_000);

    // The institution signs up through the real form.
    const email = `e2e-escola.${Date.now()}@teste.com.br`;
    await page.goto("/signup?profile=institution");
    await page.getByText("A escola será escolhida depois, em 'Meus Dados'.").waitFor();
    await pick(page, "Estado (UF)", "SP - São Paulo", "SP");
    await pick(page, "Cidade", "São Paulo", "São Paulo");
    await pick(page, "Bairro", "Moema", "Moema");
    await page.getByLabel("Nome completo").fill("Mariana Costa");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Senha", { exact: true }).fill("Girassol-Azul-42");
    await page.getByLabel("Li e aceito os Termos de Uso e a Política de Privacidade").check();
    await page.getByLabel(/Autorizo o processamento dos meus dados/).check();
    await page.locator("form").getByRole("button", { name: "Criar conta" }).click();
    await toast(page, "Conta criada com sucesso!");
    await page.waitForURL((u) => u.pathname === "/home-instituicao");
    const [created] = await db.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
    const staff = { id: created!.id };

    // /meus-dados: name, WhatsApp, position and the school request.
    await page.goto("/meus-dados");
    await page.getByLabel("WhatsApp").fill("11987654321");
    await pick(page, "Cargo", "Diretor(a)");
    await pick(page, "Estado", "SP - São Paulo", true);
    await pick(page, "Cidade", "São Paulo", true);
    await pick(page, "Bairro", "Moema", true);
    await pick(page, "Escola", school.name, true);
    await page.getByRole("button", { name: "Solicitar vínculo" }).click();
    await toast(page, "Solicitação enviada");
    await page.getByText("Aguardando aprovação", { exact: true }).waitFor();
    await snap(page, "school-meus-dados-pending-desktop");

    await page.goto("/home-instituicao");
    await page.getByText("Vínculo com a escola aguardando aprovação").waitFor();
    await page.goto("/painel-de-beneficios");
    await page.getByText("Vínculo com a escola aguardando aprovação").waitFor();

    // An admin approves (the admin issue's screen; seeded here).
    await db.db.update(schema.schoolMemberships).set({ status: "approved", decidedAt: new Date() }).where(eq(schema.schoolMemberships.userId, staff.id));
    await db.db.update(schema.profiles).set({ schoolId: school.id }).where(eq(schema.profiles.userId, staff.id));

    // /dados-da-escola: a bad CEP is refused and nothing is saved; then it saves.
    await page.goto("/dados-da-escola");
    await page.getByLabel("Nome da escola").waitFor();
    expect(await page.getByLabel("Nome da escola").inputValue()).toBe(school.name);
    await page.getByLabel("Endereço").fill("Av. Ibirapuera, 2000");
    await page.getByLabel("CEP").fill("00000000");
    await page.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Por favor, corrija os campos inválidos");
    await page.getByText("CEP inválido").waitFor();
    const [before] = await db.db.select({ address: schema.schools.address }).from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(before?.address).toBeNull();
    await page.getByLabel("CEP").fill("04029000");
    await page.getByLabel("Telefone").fill("1133334444");
    await page.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Dados atualizados!");
    const [after] = await db.db.select().from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(after).toMatchObject({ address: "Av. Ibirapuera, 2000", cep: "04029000", phone: "1133334444" });

    // The logo: a file that is too big is refused in the page, a real PNG is stored and shown.
    const files = mkdtempSync(path.join(tmpdir(), "elo-school-e2e-"));
    const bigPath = path.join(files, "grande.png");
    writeFileSync(bigPath, Buffer.concat([Buffer.from(ONE_PIXEL_PNG, "base64"), Buffer.alloc(2 * 1024 * 1024)]));
    const logoPath = path.join(files, "logo.png");
    writeFileSync(logoPath, Buffer.from(ONE_PIXEL_PNG, "base64"));
    const chooseLogo = async (file: string) => {
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Enviar logo" }).click()]);
      await chooser.setFiles(file);
    };
    await chooseLogo(bigPath);
    await toast(page, "A logo deve ter no máximo 2MB.");
    await chooseLogo(logoPath);
    await toast(page, "Logo atualizada");
    await page.getByRole("button", { name: "Remover logo" }).waitFor();
    const logoSrc = await page.getByTestId("school-logo").locator("img").getAttribute("src");
    expect(logoSrc).toMatch(new RegExp(`^/files/school_logos/${school.id}/logo-.+\\.png$`));
    expect((await page.request.get(logoSrc!)).status()).toBe(200);
    await page.waitForTimeout(300);
    await snap(page, "school-data-desktop");

    // Without a plan the panel explains it; choose Silver.
    await page.goto("/painel-de-beneficios");
    await page.getByTestId("plan-required").waitFor();
    await page.getByRole("link", { name: "Ver planos" }).click();
    await page.waitForURL((u) => u.pathname === "/plano");
    await page.getByTestId("no-plan").waitFor();
    await snap(page, "school-plans-desktop");
    await page.getByTestId("plan-silver").getByRole("link", { name: "Escolher" }).click();
    await page.waitForURL((u) => u.pathname === "/confirmacao-plano" && u.searchParams.get("plan") === "silver");
    await page.getByText("Parabéns pela escolha!").waitFor();
    await toast(page, "Plano ativado com sucesso!");
    await snap(page, "school-plan-confirmation-desktop");
    await page.getByRole("link", { name: "Ir para Planos" }).click();
    await page.getByTestId("current-plan").getByText("Silver").waitFor();

    // Publish a benefit.
    await page.goto("/painel-de-beneficios");
    await pick(page, "Etapa de ensino", "Iniciante");
    await page.getByLabel("Nome da turma").fill("Teatro Kids");
    await pick(page, "Categoria", "Outros");
    await pick(page, "Modalidade", "Teatro", true);
    await pick(page, "Período", "Tarde");
    await pick(page, "Validade do desconto", "Os 3 primeiros meses");
    await pick(page, "Quem pode receber", "Todos os alunos da plataforma, exceto os da minha instituição");
    // Centavos are the smallest unit: a third decimal is refused on the field (decision 109).
    await page.getByLabel("Mensalidade (R$)").fill("100,005");
    await page.getByText("Informe a mensalidade com no máximo 2 casas decimais (centavos).").waitFor();
    await page.getByLabel("Mensalidade (R$)").fill("1234,5");
    await page.getByLabel("Desconto (%)").fill("20");
    await page.getByLabel("Número de benefícios").fill("3");
    await page.getByLabel("Mensalidade (R$)").click();
    await page.getByLabel("Nome da turma").click();
    expect(await page.getByLabel("Mensalidade (R$)").inputValue()).toBe("1.234,50");
    expect(await page.getByTestId("discounted-fee").inputValue()).toBe("987,60");
    await page.getByRole("button", { name: "Cadastrar", exact: true }).click();
    await toast(page, "Desconto cadastrado!");
    await page.getByTestId("benefit-card").getByText("Teatro Kids").waitFor();
    await snap(page, "school-benefits-panel-desktop");

    // Edit mode fills the form; 'Cancelar edição' returns to create mode without saving.
    await page.getByTestId("benefit-card").filter({ hasText: "Teatro Kids" }).getByRole("button", { name: "Editar" }).click();
    await page.getByRole("heading", { name: "Editar benefício: Teatro Kids" }).waitFor();
    expect(await page.getByLabel("Nome da turma").inputValue()).toBe("Teatro Kids");
    await page.getByLabel("Nome da turma").fill("Teatro Kids Editado");
    await snap(page, "school-benefit-edit-desktop");
    await page.getByRole("button", { name: "Cancelar edição" }).click();
    await page.getByRole("heading", { name: "Cadastrar benefício" }).waitFor();
    expect(await page.getByLabel("Nome da turma").inputValue()).toBe("");
    expect(await page.getByRole("button", { name: "Cancelar edição" }).count()).toBe(0);
    const [benefit] = await db.db.select().from(schema.discounts).where(eq(schema.discounts.schoolId, school.id));
    expect(benefit).toMatchObject({ monthlyFee: 1234.5, discountPercentage: 20, discountedFee: 987.6, numberOfStudents: 3 });

    // The demo parent sees it on /home and claims it.
    const [parent] = await db.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.parent.email));
    const parentSide = await newPage(browser);
    parentSide.page.setDefaultTimeout(15_000);
    await loginAs(parentSide.context, parent!.id);
    await parentSide.page.goto("/home");
    const card = parentSide.page.getByTestId("benefit-card").filter({ hasText: "Teatro Kids" });
    await card.getByRole("button", { name: "Aproveitar benefício" }).click();
    await parentSide.page.waitForURL((u) => u.pathname === "/confirmacao-desconto");
    const code = (await parentSide.page.getByTestId("voucher-code").textContent())!.trim();
    expect(code).toMatch(/^\d{4}-[A-Z]{4}$/);
    const [voucher] = await db.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.voucherCode, code));
    const [parentSchool] = await db.db.select({ schoolId: schema.profiles.schoolId }).from(schema.profiles).where(eq(schema.profiles.userId, parent!.id));

    // Counters before the confirmation.
    await page.goto("/home-instituicao");
    await page.getByTestId("school-hero").waitFor();
    expect(await page.getByTestId("school-hero").getAttribute("data-hero")).toBe("feminine");
    expect(await page.getByTestId("counter-reserved-value").textContent()).toBe("1");
    expect(await page.getByTestId("counter-conversion-value").textContent()).toBe("0%");
    expect(await page.getByTestId("counter-available-value").textContent()).toBe("1");
    await page.getByRole("button", { name: "Detalhes" }).click();
    await page.getByRole("dialog").getByText(code).waitFor();
    await page.waitForTimeout(300);
    await snap(page, "school-home-details-desktop");
    await page.keyboard.press("Escape");

    // The voucher desk confirms it.
    await page.goto("/painel-escola");
    await page.getByLabel("Código do voucher").fill(code.toLowerCase().replace("-", ""));
    await page.getByRole("button", { name: "Buscar" }).click();
    const result = page.getByTestId("voucher-result");
    await result.getByText("Teatro Kids").waitFor();
    await result.getByRole("button", { name: "Confirmar utilização" }).click();
    await toast(page, "Utilização confirmada!");
    await result.getByText("Utilizado", { exact: true }).waitFor();
    await snap(page, "school-voucher-desk-desktop");
    const [stored] = await db.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, voucher!.id));
    expect(stored).toMatchObject({ status: "utilizado", redeemedBy: staff.id });
    await page.getByLabel("Código do voucher").fill("9999-ZZZZ");
    await page.getByRole("button", { name: "Buscar" }).click();
    await page.getByRole("alert").getByText("Voucher não encontrado. Confira o código digitado.").waitFor();

    await page.goto("/home-instituicao");
    await page.getByTestId("counter-conversion-value").getByText("100%").waitFor();
    await snap(page, "school-home-desktop");

    // Pause from the home and reactivate.
    await page.getByRole("button", { name: "Pausar benefícios" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Pausar" }).click();
    await toast(page, "Benefício pausado");
    await page.getByTestId("benefit-card").getByText("Pausado", { exact: true }).waitFor();
    await page.getByTestId("counter-paused-value").getByText("1", { exact: true }).waitFor();
    // A paused benefit leaves the marketplace (checked with another parent: the demo parent already claimed it).
    const other = { id: await seedUser(db.db, { profileType: "parent", fullName: "Outra Mãe", schoolId: parentSchool!.schoolId, profileCompleted: true, enrollmentProofSubmitted: true }) };
    const otherSide = await newPage(browser);
    await loginAs(otherSide.context, other.id);
    await otherSide.page.goto("/home");
    await otherSide.page.getByTestId("benefit-card").first().waitFor();
    expect(await otherSide.page.getByTestId("benefit-card").filter({ hasText: "Teatro Kids" }).count()).toBe(0);
    await page.getByRole("button", { name: "Reativar benefício" }).click();
    await toast(page, "Benefício reativado");
    await otherSide.page.reload();
    await otherSide.page.getByTestId("benefit-card").filter({ hasText: "Teatro Kids" }).waitFor();
    await otherSide.context.close();
    await parentSide.context.close();
    await context.close();

    // Phone width.
    const phone = await newPage(browser, PHONE);
    await loginAs(phone.context, staff.id);
    for (const [path, name] of [["/home-instituicao", "home"], ["/painel-de-beneficios", "benefits-panel"], ["/painel-escola", "voucher-desk"], ["/plano", "plans"], ["/dados-da-escola", "data"]] as const) {
      await phone.page.goto(path);
      await phone.page.getByRole("heading").first().waitFor();
      await phone.page.waitForTimeout(400);
      await snap(phone.page, `school-${name}-phone`);
    }
    await phone.context.close();
  }, 240_000);

  it("sends a visitor choosing a plan to /login with the plan message, and an unknown plan to /plano", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/confirmacao-plano?plan=gold");
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByText("Você precisa estar logado para escolher um plano").waitFor();
    const [staff] = await db.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.school.email));
    await loginAs(context, staff!.id);
    await page.goto("/confirmacao-plano?plan=platina");
    await page.waitForURL((u) => u.pathname === "/plano");
    await page.getByTestId("current-plan").getByText("Gold").waitFor();
    await context.close();
  });
});
