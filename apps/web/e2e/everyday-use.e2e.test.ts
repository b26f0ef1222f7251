import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { schema, type DatabaseHandle } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Browser, Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, login, loginAs, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { fillSignupForm } from "./support/forms";
import { seedSchool, seedUser } from "./support/seed";
import { statePurposeForParents } from "./support/admin-purpose";

/** Issue 20's "Found while using it": one scenario per point, each at the widths a person used. */

let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

const PHONE_375 = { width: 375, height: 740 };
const run = `${Date.now() % 1_000_000}`;

const userId = async (email: string) => (await db.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)))[0]!.id;
const notification = (page: Page, text: string) => page.locator(".mantine-Notification-root").filter({ hasText: text }).first();
const box = async (l: Locator) => (await l.boundingBox())!;
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Picks an option of a Mantine Select (typing first when `typed` is given). */
async function pick(scope: Page | Locator, page: Page, label: string, option: string, typed?: string) {
  const input = scope.getByRole("combobox", { name: label, exact: true }).first();
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole("option", { name: option, exact: true }).first().click();
}

describe("1. a refused staff request", () => {
  it("is sent again for the same school, and the admin sees it is a repeat", async () => {
    const school = await seedSchool(db.db, `Escola Recusada ${run}`, "Idiomas", "Moema");
    const email = `recusado.${run}@teste.com.br`;
    const staff = await seedUser(db.db, { profileType: "institution", fullName: `Secretária Recusada ${run}` }, email);
    const refusedAt = new Date(Date.now() - 86_400_000);
    await db.db.insert(schema.schoolMemberships).values({ userId: staff, schoolId: school.id, status: "rejected", requestedAt: new Date(Date.now() - 2 * 86_400_000), decidedAt: refusedAt });

    const { page, context } = await newPage(browser);
    await loginAs(context, staff);
    await page.goto("/meus-dados");
    const notice = page.getByTestId("membership-notice");
    await notice.getByText("Seu pedido de vínculo com a escola foi recusado. Escolha a escola novamente ou fale conosco.").waitFor();
    // Already on /meus-dados: no button sending there.
    expect(await notice.getByRole("link").count()).toBe(0);
    await page.getByRole("combobox", { name: "Escola", exact: true }).and(page.locator(`[value="${school.name}"]`)).waitFor();
    await page.getByRole("button", { name: "Solicitar vínculo" }).click();
    await notification(page, "Solicitação enviada").waitFor();
    await page.getByText("Aguardando aprovação", { exact: true }).waitFor();
    const rows = await db.db.select().from(schema.schoolMemberships).where(eq(schema.schoolMemberships.userId, staff));
    expect(rows.map((r) => [r.schoolId, r.status]).sort()).toEqual([[school.id, "pending"], [school.id, "rejected"]]);
    await snap(page, "everyday-refused-resent-desktop");
    await context.close();

    const admin = await newPage(browser);
    await loginAs(admin.context, await userId(DEMO.admin.email));
    await admin.page.goto("/admin-escolas");
    const row = admin.page.getByTestId("membership-queue").getByRole("row").filter({ hasText: email });
    await row.getByText(`Pedido repetido: recusado em ${refusedAt.toLocaleDateString("pt-BR", { timeZone: "America/Sao_Paulo" })}`).waitFor();
    await snap(admin.page, "everyday-queue-repeat-desktop");
    await admin.context.close();
  });
});

describe("2. 'Para Escolas' on /para-escolas itself", () => {
  it("scrolls back to the top from the header's and the footer's link", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/para-escolas");
    await page.getByRole("heading", { name: "O benefício que faltava na sua escola." }).waitFor();
    const scrollY = () => page.evaluate<number>("window.scrollY");
    const toBottom = async () => {
      await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");
      await expect.poll(scrollY).toBeGreaterThan(500);
    };
    await toBottom();
    await page.getByRole("navigation", { name: "Navegação principal" }).getByRole("link", { name: "Para Escolas" }).click();
    await expect.poll(scrollY, { timeout: 3000 }).toBe(0);
    await toBottom();
    await page.getByRole("contentinfo").getByRole("link", { name: "Para escolas" }).click();
    await expect.poll(scrollY, { timeout: 3000 }).toBe(0);
    await context.close();
  });
});

describe("3. toasts", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE_375]] as const) {
    it(`cover nothing of the header after login (${name})`, async () => {
      const { page, context } = await newPage(browser, viewport);
      await login(page, DEMO.parent.email, DEMO.parent.password);
      const toast = notification(page, "Login realizado com sucesso!");
      await toast.waitFor();
      await page.waitForURL((u) => u.pathname === "/home");
      await page.waitForTimeout(400); // the enter transition
      const header = await box(page.locator("header"));
      const t = await box(toast);
      expect(t.y).toBeGreaterThanOrEqual(header.y + header.height);
      if (name === "phone") expect(t.y + t.height).toBeGreaterThan(viewport.height / 2);
      await snap(page, `everyday-toast-${name}`);
      await context.close();
    });
  }

  it("close the signup toast once its redirect has happened", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/signup");
    await fillSignupForm(page, `toast.${run}@teste.com.br`);
    await page.locator("form").getByRole("button", { name: "Criar conta" }).click();
    const toast = notification(page, "Conta criada com sucesso!");
    await toast.waitFor();
    await page.waitForURL((u) => u.pathname === "/home", { timeout: 10_000 });
    // Before: it stayed for the rest of its 5 s.
    await toast.waitFor({ state: "detached", timeout: 1500 });
    await context.close();
  });
});

describe("4. saved values on /meus-dados", () => {
  it("show from the first paint even while the option lists are slow", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, await userId(DEMO.parent.email));
    const slow = (url: URL) => /reference\.|schools\.byNeighborhood/.test(url.pathname);
    await page.route(slow, async (route) => {
      await new Promise((r) => setTimeout(r, 2000));
      await route.continue();
    });
    await page.goto("/meus-dados");
    const relationship = page.getByRole("combobox", { name: "Parentesco", exact: true });
    await relationship.waitFor();
    expect(await relationship.inputValue()).toBe("Mãe");
    const main = page.getByRole("tabpanel");
    for (const [label, saved] of [["UF", "SP - São Paulo"], ["Cidade", "São Paulo"], ["Bairro", "Pinheiros"], ["Escola", "Colégio Horizonte"]] as const) {
      expect(await main.getByRole("combobox", { name: label, exact: true }).inputValue(), label).toBe(saved);
    }
    await snap(page, "everyday-meus-dados-first-paint-desktop");
    await page.unroute(slow);
    await context.close();
  });
});

describe("5. the voucher desk", () => {
  it("has a name of its own, apart from the benefit form", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, await userId(DEMO.school.email));
    await page.goto("/home-instituicao");
    await page.getByRole("button", { name: "Minha Conta" }).click();
    const menu = page.getByRole("menu");
    await menu.getByRole("menuitem", { name: "Validar vouchers" }).waitFor();
    expect(await menu.getByRole("menuitem", { name: /painel de benef/i }).count()).toBe(0);
    await menu.getByRole("menuitem", { name: "Validar vouchers" }).click();
    await page.waitForURL((u) => u.pathname === "/painel-escola");
    await page.getByRole("heading", { level: 1, name: "Validar vouchers" }).waitFor();
    await page.goto("/painel-de-beneficios");
    await page.getByRole("heading", { level: 1, name: "Painel de Benefícios" }).waitFor();
    await context.close();
  });
});

describe("6. layout", () => {
  it("/admin-escolas aligns with the header, its account menu leaves 'Gestão de Pais' visible and the CSV badges are whole", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, await userId(DEMO.admin.email));
    await page.goto("/admin-escolas");
    const title = page.getByRole("heading", { level: 1, name: "Gerenciar Escolas" });
    await title.waitFor();
    const brand = await box(page.locator("header").getByRole("link", { name: /Elo Escolar/ }).first());
    expect(Math.abs((await box(title)).x - brand.x)).toBeLessThanOrEqual(2);

    await page.getByRole("button", { name: "Minha Conta" }).click();
    const dropdown = page.getByRole("menu");
    await dropdown.waitFor();
    await page.waitForTimeout(300);
    expect(overlaps(await box(dropdown), await box(page.getByRole("link", { name: "Gestão de Pais" })))).toBe(false);
    await snap(page, "everyday-admin-menu-desktop");
    await page.keyboard.press("Escape");

    const dir = mkdtempSync(path.join(tmpdir(), "elo-everyday-"));
    const csv = path.join(dir, "escolas.csv");
    const lines = ["name;categoria;modalidade;city;uf;neighborhood;address;phone;whatsapp;cep"];
    lines.push(`Colégio de Aplicação com um Nome Bem Comprido ${run};Ed. Básica;;São Paulo;SP;Pinheiros;Rua dos Pinheiros, 1000;(11) 3333-1000;;05422-001`);
    lines.push(`Escola Aviso ${run};Idiomas;Inglês;Cidade Inexistente;SP;;;;;`);
    lines.push(`;Ed. Básica;;São Paulo;SP;;;;;`);
    writeFileSync(csv, `${lines.join("\r\n")}\r\n`);
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Escolher arquivo CSV" }).click()]);
    await chooser.setFiles(csv);
    const preview = page.getByTestId("csv-preview");
    await preview.locator("tbody tr").nth(2).waitFor();
    const cut = await preview.locator(".mantine-Badge-label").evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
    expect(cut).toEqual([]);
    await snap(page, "everyday-admin-csv-desktop");
    await context.close();
  });

  it("the 'Tokens de API' card on /meus-dados is as wide as the other cards", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, await userId(DEMO.parent.email));
    await page.goto("/meus-dados");
    const card = (heading: string) => page.locator(".mantine-Card-root").filter({ has: page.getByRole("heading", { name: heading }) });
    await card("Dados do responsável").waitFor();
    await card("Tokens de API").waitFor();
    const guardian = await box(card("Dados do responsável"));
    const tokens = await box(card("Tokens de API"));
    expect([tokens.x, tokens.width]).toEqual([guardian.x, guardian.width]);
    await context.close();
  });
});

describe("7. the demo world", () => {
  it("holds the demo parent's proof as a real PDF and the demo schools' logos as real images", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, await userId(DEMO.admin.email));
    await page.goto("/admin-pais");
    await statePurposeForParents(page, "suporte com número do chamado", "DEMO-1");
    await page.getByLabel("Buscar por nome, aluno, escola ou e-mail").fill(DEMO.parent.email);
    const row = page.getByRole("row").filter({ hasText: DEMO.parent.email });
    // The list holds no file address: the administrator states a purpose first (issue 27).
    await row.getByRole("button", { name: "Abrir comprovante" }).click();
    const dialog = page.getByRole("dialog", { name: "Por que você vai abrir estes dados?" });
    await dialog.getByLabel("Finalidade do acesso").click();
    await page.getByRole("option", { name: "suporte com número do chamado" }).click();
    await dialog.getByLabel("Número do chamado").fill("DEMO-1");
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Abrir com esta finalidade" }).click()]);
    const { readFile } = await import("node:fs/promises");
    expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe("%PDF-");

    const demoSchools = await db.db.select({ name: schema.schools.name, logoUrl: schema.schools.logoUrl }).from(schema.schools).where(eq(schema.schools.origin, "seed"));
    expect(demoSchools.length).toBeGreaterThan(0);
    for (const s of demoSchools) {
      expect(s.logoUrl, s.name).toBeTruthy();
      const logo = await page.request.get(`/files/school_logos/${s.logoUrl}`);
      expect(logo.status(), s.name).toBe(200);
      expect(logo.headers()["content-type"], s.name).toMatch(/^image\/(png|webp|jpeg)/);
    }
    await context.close();

    // The parent's marketplace shows them.
    const parent = await newPage(browser);
    await loginAs(parent.context, await userId(DEMO.parent.email));
    await parent.page.goto("/home");
    const card = parent.page.getByTestId("benefit-card").filter({ hasText: "Fluent English School" }).first();
    await card.waitFor();
    const img = card.locator("img").first();
    await img.waitFor();
    // Loaded and decoded: a broken or missing logo has no natural width.
    await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await snap(parent.page, "everyday-demo-home-desktop");
    await parent.context.close();
  });
});

describe("8. dates", () => {
  it("are typed as dd/mm/aaaa on /meus-dados and /add-escola", async () => {
    const parent = await seedUser(db.db, { profileType: "parent", fullName: "Paula Datas" });
    const { page, context } = await newPage(browser, PHONE_375);
    await loginAs(context, parent);
    await page.goto("/meus-dados");
    const birth = page.getByLabel("Data de nascimento");
    await birth.waitFor();
    expect(await birth.getAttribute("type")).not.toBe("date");
    expect(await birth.getAttribute("placeholder")).toBe("dd/mm/aaaa");
    await birth.fill("10/03/2015");
    await page.getByLabel("Nome do aluno").click();
    expect(await birth.inputValue()).toBe("10/03/2015");
    await page.getByRole("button", { name: "Salvar", exact: true }).click();
    await notification(page, "Dados salvos").waitFor();
    const [saved] = await db.db.select({ birth: schema.profiles.studentBirthDate }).from(schema.profiles).where(eq(schema.profiles.userId, parent));
    expect(saved!.birth).toBe("2015-03-10");
    await snap(page, "everyday-birth-date-phone");

    await page.goto("/add-escola");
    await page.getByRole("button", { name: "Adicionar escola" }).click();
    await pick(page, page, "UF", "SP - São Paulo", "SP");
    await pick(page, page, "Cidade", "São Paulo", "São Paulo");
    await pick(page, page, "Bairro", "Pinheiros", "Pinheiros");
    await pick(page, page, "Escola", "Fluent English School", "Fluent");
    await page.getByLabel("Data de início").fill("01/02/2026");
    await page.getByLabel("Data de término").fill("10/12/2026");
    await page.getByLabel("Turma (número ou nome)").click();
    expect(await page.getByLabel("Data de início").inputValue()).toBe("01/02/2026");
    await snap(page, "everyday-enrollment-dates-phone");
    await page.getByRole("button", { name: "Adicionar", exact: true }).click();
    await notification(page, "Matrícula adicionada").waitFor();
    const [enrollment] = await db.db.select().from(schema.enrollments).where(eq(schema.enrollments.userId, parent));
    expect([enrollment!.startDate, enrollment!.endDate]).toEqual(["2026-02-01", "2026-12-10"]);
    await context.close();
  });
});

describe("the changed pages", () => {
  it("are photographed at 375 px and 1280 px for a person to look at", async () => {
    const refused = await seedUser(db.db, { profileType: "institution", fullName: "Secretária Fotografada" });
    const school = await seedSchool(db.db, `Escola Fotografada ${run}`, "Tecnologia", "Moema");
    await db.db.insert(schema.schoolMemberships).values({ userId: refused, schoolId: school.id, status: "rejected", decidedAt: new Date() });
    const pages: Array<[who: string, path: string, name: string]> = [
      [DEMO.parent.email, "/meus-dados", "parent-meus-dados"],
      [DEMO.parent.email, "/add-escola", "parent-add-escola"],
      [DEMO.parent.email, "/home", "parent-home"],
      [DEMO.school.email, "/meus-dados", "school-meus-dados"],
      [DEMO.school.email, "/painel-escola", "school-desk"],
      [DEMO.admin.email, "/admin-escolas", "admin-escolas"],
      [DEMO.admin.email, "/admin-pais", "admin-pais"],
      ["", "/para-escolas", "para-escolas"],
    ];
    for (const [width, viewport] of [["375", PHONE_375], ["1280", DESKTOP]] as const) {
      for (const [who, path, name] of pages) {
        const { page, context } = await newPage(browser, viewport);
        if (who) await loginAs(context, await userId(who));
        await page.goto(path);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        await page.waitForLoadState("networkidle");
        await snap(page, `everyday-${name}-${width}`);
        await context.close();
      }
      const { page, context } = await newPage(browser, viewport);
      await loginAs(context, refused);
      await page.goto("/meus-dados");
      await page.getByTestId("membership-notice").waitFor();
      await page.waitForLoadState("networkidle");
      await snap(page, `everyday-school-refused-${width}`);
      await context.close();
    }
  }, 180_000);
});
