import { schema, type DatabaseHandle } from "@elo/db";
import { and, desc, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../../server/src/auth/password";
import { hasHorizontalScroll, login, loginAs, newPage, PHONE, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";

let browser: Browser;
let handle: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db: handle } = opened));

let seq = 0;
const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++seq}@teste.com.br`;
const PASSWORD = "Senha#Forte123";

/** Seeds an account straight into the e2e database. */
async function seedUser(opts: { admin?: boolean } = {}) {
  const email = uniqueEmail(opts.admin ? "e2e-admin" : "e2e-user");
  const [user] = await handle.db.insert(schema.users).values({ email, passwordHash: await hashPassword(PASSWORD) }).returning({ id: schema.users.id });
  await handle.db.insert(schema.profiles).values({ userId: user!.id, profileType: "parent", fullName: "Pessoa de Teste" });
  if (opts.admin) await handle.db.insert(schema.userRoles).values({ userId: user!.id, role: "admin" });
  return { id: user!.id, email, password: PASSWORD };
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

/** Picks an option of a Mantine searchable Select. */
async function pick(page: Page, label: string, search: string, option: string) {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  await input.fill(search);
  await page.getByRole("option", { name: option, exact: true }).click();
}

async function fillSignup(page: Page, email: string) {
  await pick(page, "Estado (UF)", "SP", "SP - São Paulo");
  await pick(page, "Cidade", "São Paulo", "São Paulo");
  await pick(page, "Bairro", "Pinheiros", "Pinheiros");
  await page.getByLabel("Nome completo").fill("Joana Pereira");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill("Girassol-Azul-42");
}

describe("accounts and access", () => {
  it("signs a parent up and lands on /home after the success toast", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/signup");
    await fillSignup(page, uniqueEmail("e2e-pai"));
    const submit = page.locator("form").getByRole("button", { name: "Criar conta" });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel("Li e aceito os Termos de Uso e a Política de Privacidade").check();
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel(/Autorizo o processamento dos meus dados/).check();
    await snap(page, "signup-parent-desktop");
    await submit.click();
    await toast(page, "Conta criada com sucesso!");
    await page.waitForURL((u) => u.pathname === "/home", { timeout: 10_000 });
    await context.close();
  });

  it("signs an institution up from /signup?profile=institution and lands on /home-instituicao", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await page.goto("/signup?profile=institution");
    await page.getByText("A escola será escolhida depois, em 'Meus Dados'.").waitFor();
    await fillSignup(page, uniqueEmail("e2e-escola"));
    await page.getByLabel("Li e aceito os Termos de Uso e a Política de Privacidade").check();
    await page.getByLabel(/Autorizo o processamento dos meus dados/).check();
    await snap(page, "signup-institution-phone");
    await page.locator("form").getByRole("button", { name: "Criar conta" }).click();
    await toast(page, "Conta criada com sucesso!");
    await page.waitForURL((u) => u.pathname === "/home-instituicao", { timeout: 10_000 });
    await context.close();
  });

  it("refuses a very common password with the spec's message", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/signup");
    await fillSignup(page, uniqueEmail("e2e-fraca"));
    await page.getByLabel("Senha", { exact: true }).fill("123456");
    await page.getByLabel("Li e aceito os Termos de Uso e a Política de Privacidade").check();
    await page.getByLabel(/Autorizo o processamento dos meus dados/).check();
    await page.locator("form").getByRole("button", { name: "Criar conta" }).click();
    await toast(page, "A senha escolhida é muito fraca. Por favor, escolha uma senha mais forte com letras, números e caracteres especiais.");
    expect(new URL(page.url()).pathname).toBe("/signup");
    await context.close();
  });

  it("shows the remaining attempts, then the temporary block", async () => {
    const user = await seedUser();
    const { page, context } = await newPage(browser);
    await page.goto("/login");
    const submit = page.getByRole("button", { name: "Entrar" });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Senha", { exact: true }).fill("senha-errada");
    const expected = [
      "Você tem mais 4 tentativa(s) antes do bloqueio temporário.",
      "Você tem mais 3 tentativa(s) antes do bloqueio temporário.",
      "Você tem mais 2 tentativa(s) antes do bloqueio temporário.",
      "Próxima tentativa falhada bloqueará sua conta por 15 minutos.",
      "Muitas tentativas falhadas. Tente novamente em 15 minutos.",
    ];
    for (const message of expected) {
      await submit.click();
      await toast(page, message);
    }
    await page.getByText("Conta temporariamente bloqueada").waitFor();
    await snap(page, "login-blocked-desktop");
    // The right password is refused too while the block lasts.
    await page.getByLabel("Senha", { exact: true }).fill(user.password);
    await submit.click();
    await page.waitForTimeout(500);
    await toast(page, "Muitas tentativas falhadas. Tente novamente em 15 minutos.");
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });

  it("logs an admin in to /admin-escolas, replacing history", async () => {
    const admin = await seedUser({ admin: true });
    const { page, context } = await newPage(browser);
    await page.goto("/");
    await login(page, admin.email, admin.password);
    await toast(page, "Login realizado com sucesso!");
    await page.waitForURL((u) => u.pathname === "/admin-escolas");
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe("/");
    await context.close();
  });

  it("recovers a password by e-mail and logs in with the new one", async () => {
    const user = await seedUser();
    const { page, context } = await newPage(browser, PHONE);
    await page.goto("/login");
    await page.getByRole("link", { name: "Esqueceu sua senha?" }).click();
    await page.getByLabel("E-mail").fill(user.email);
    await snap(page, "forgot-password-phone");
    await page.getByRole("button", { name: "Enviar link de recuperação" }).click();
    await toast(page, "E-mail enviado!");
    await page.getByText(`Se houver uma conta com o e-mail ${user.email}`, { exact: false }).waitFor();

    const latestMail = async () =>
      (
        await handle.db
          .select({ text: schema.emailOutbox.text })
          .from(schema.emailOutbox)
          .where(and(eq(schema.emailOutbox.to, user.email), eq(schema.emailOutbox.kind, "password-reset")))
          .orderBy(desc(schema.emailOutbox.createdAt))
          .limit(1)
      )[0];
    // The link is made and mailed just after the answer (decision 106).
    await expect.poll(latestMail, { timeout: 10_000 }).toBeDefined();
    const mail = await latestMail();
    const link = mail!.text!.match(/https?:\/\/\S+\/reset-password\?token=[a-z0-9]+/)![0];
    await page.goto(link);
    await page.getByLabel("Nova senha", { exact: true }).fill("Nova-Senha-Forte-99");
    await page.getByLabel("Confirmar nova senha", { exact: true }).fill("Outra-Coisa-99");
    await page.getByRole("button", { name: "Redefinir senha" }).click();
    await page.getByText("As senhas não coincidem").first().waitFor();
    await page.getByLabel("Confirmar nova senha", { exact: true }).fill("Nova-Senha-Forte-99");
    await snap(page, "reset-password-phone");
    await page.getByRole("button", { name: "Redefinir senha" }).click();
    await toast(page, "Senha redefinida!");
    await page.waitForURL((u) => u.pathname === "/login", { timeout: 10_000 });

    await login(page, user.email, "Nova-Senha-Forte-99");
    await page.waitForURL((u) => u.pathname === "/home");
    await context.close();
  });

  it("sends an invalid recovery link to /forgot-password after the toast", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/reset-password?token=link-que-nao-existe");
    await toast(page, "Por favor, solicite um novo link de recuperação.");
    await page.waitForURL((u) => u.pathname === "/forgot-password", { timeout: 10_000 });
    await context.close();
  });

  it("sends a parent opening /admin-escolas to /home with the permission toast", async () => {
    const parent = await seedUser();
    const { page, context } = await newPage(browser);
    await loginAs(context, parent.id);
    await page.goto("/admin-escolas");
    await page.waitForURL((u) => u.pathname === "/home");
    await toast(page, "Você não tem permissão para acessar esta página");
    await context.close();
  });

  it("shows the admin every e-mail template, recovery first", async () => {
    const admin = await seedUser({ admin: true });
    const { page, context } = await newPage(browser);
    await loginAs(context, admin.id);
    await page.goto("/email-preview");
    const card = page.getByTestId("email-preview-password-reset");
    await card.waitFor();
    const frame = page.frameLocator('iframe[title="HTML: Recuperação de senha"]');
    await frame.getByRole("link", { name: "Redefinir senha" }).waitFor();
    await snap(page, "email-preview-desktop");
    await context.close();
  });

  it("renders the login page at phone width", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await page.goto("/login");
    await page.getByRole("button", { name: "Entrar" }).waitFor();
    await snap(page, "login-phone");
    expect(await hasHorizontalScroll(page)).toBe(false);
    await context.close();
  });
});
