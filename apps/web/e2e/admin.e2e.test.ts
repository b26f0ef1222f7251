import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { schema } from "@elo/db";
import { adminUiMessages, normalizeKey } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, DESKTOP, hasHorizontalScroll, launchBrowser, loginAs, newPage, PHONE, snap } from "./support/browser";
import { e2eDatabase } from "./support/db";
import { statePurposeForParents } from "./support/admin-purpose";

const run = Date.now() % 1_000_000;
const batch = `Lote ${run}`;
let browser: Browser;
let adminId: string;
let parentId: string;
let staffEmail: string;
const workDir = mkdtempSync(path.join(tmpdir(), "elo-admin-e2e-"));

/** 50 rows: mostly valid, some warnings (unknown city, duplicate, bad phone), two without name. */
function fiftyRowCsv(): string {
  const lines = ["name;categoria;modalidade;city;uf;neighborhood;address;phone;whatsapp;cep"];
  for (let i = 1; i <= 50; i++) {
    const n = String(i).padStart(2, "0");
    if (i === 20 || i === 30) lines.push(`;Ed. Básica;;São Paulo;SP;;;;;`);
    else if (i === 5) lines.push(`Escola ${batch} ${n};Idiomas;Inglês;Cidade Inexistente;SP;;;;;`);
    else if (i === 10) lines.push(`escola ${batch.toLowerCase()} 09;Ed. Básica;;São Paulo;SP;;;;;`);
    else if (i === 15) lines.push(`Escola ${batch} ${n};Clubes;Natação;Rio de Janeiro;RJ;Copacabana;Av. Atlântica, ${i};(00) 0000-0000;;`);
    else lines.push(`Escola ${batch} ${n};${i % 2 ? "Idiomas" : "Tecnologia"};;São Paulo;sp;pinheiros;Rua ${i}, 100;(11) 3333-${String(1000 + i)};;05422-001`);
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

async function toast(page: Page, text: string) {
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });
}

beforeAll(async () => {
  browser = await launchBrowser();
  const handle = await e2eDatabase();
  try {
    const db = handle.db;
    const [admin] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.admin.email));
    const [parent] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.parent.email));
    adminId = admin!.id;
    parentId = parent!.id;
    // An institution user asking to manage a school.
    const name = `Escola Pedido ${run}`;
    const [school] = await db.insert(schema.schools).values({ name, nameKey: normalizeKey(name), uf: "SP", city: "São Paulo", origin: "admin" }).returning({ id: schema.schools.id });
    staffEmail = `secretaria.${run}@teste.com.br`;
    const [staff] = await db.insert(schema.users).values({ email: staffEmail, passwordHash: "not-used" }).returning({ id: schema.users.id });
    await db.insert(schema.profiles).values({ userId: staff!.id, profileType: "institution", fullName: `Secretária ${run}` });
    await db.insert(schema.schoolMemberships).values({ userId: staff!.id, schoolId: school!.id, position: "Diretor(a)", status: "pending" });
  } finally {
    await handle.close();
  }
});
afterAll(() => browser.close());

describe("administration", () => {
  it("turns non-admins away from the admin pages", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, parentId);
    await page.goto("/admin-escolas");
    await page.waitForURL((u) => u.pathname === "/home");
    await toast(page, "Você não tem permissão para acessar esta página");
    // /admin-pais sends a non-admin to /dashboard, which at once sends a parent on to /home: the
    // stop at /dashboard can be too short for the URL poll to see, so the scenario waits for the end.
    await page.goto("/admin-pais");
    await page.waitForURL((u) => u.pathname === "/home");
    await toast(page, "Acesso negado. Apenas administradores podem acessar esta página.");
    await context.close();
  });

  it("downloads the template, previews a 50-row CSV and imports it with a progress bar", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, adminId);
    await page.goto("/admin-escolas");
    await page.getByRole("heading", { name: "Gerenciar Escolas" }).waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Baixar template" }).click()]);
    expect(download.suggestedFilename()).toBe("template_escolas.csv");
    const templatePath = path.join(workDir, "template.csv");
    await download.saveAs(templatePath);
    const template = readFileSync(templatePath, "utf8");
    expect(template.charCodeAt(0)).toBe(0xfeff);
    expect(template.slice(1).split(/\r\n/)[0]).toBe("name,categoria,modalidade,city,uf,neighborhood,address,phone,whatsapp,cep");
    await toast(page, "Template CSV baixado!");

    const csvPath = path.join(workDir, "escolas-50.csv");
    writeFileSync(csvPath, fiftyRowCsv());
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Escolher arquivo CSV" }).click()]);
    await chooser.setFiles(csvPath);
    await toast(page, "CSV processado: 45 válidas, 3 avisos, 2 inválidas");
    const preview = page.getByTestId("csv-preview");
    await expect(preview.locator("tbody tr").count()).resolves.toBe(50);
    await expect(preview.locator('tbody tr[data-status="invalid"]').count()).resolves.toBe(2);
    await preview.locator('tbody tr[data-status="warning"]').filter({ hasText: "Cidade Inexistente" }).getByText('Cidade "Cidade Inexistente" não encontrada em SP').waitFor();
    await preview.getByText("Nome duplicado no CSV - apenas a primeira será importada").waitFor();
    await expect(preview.locator('tbody tr[data-status="invalid"] input[type=checkbox]').first().isDisabled()).resolves.toBe(true);
    await snap(page, "admin-csv-preview-desktop");

    // Slow each chunk down a little so the progress bar can be seen moving.
    const isImport = (url: URL) => url.pathname.includes("admin.csv.import");
    await page.route(isImport, async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await preview.getByRole("button", { name: "Importar 47 escolas" }).click();
    // 47 rows in chunks of 25: the bar passes 53% before it ends.
    await page.getByText("Importando... 53%").waitFor();
    await snap(page, "admin-csv-progress-desktop");
    await toast(page, "Importação concluída! 47 novas, 0 atualizadas");
    await expect(page.getByTestId("csv-preview").count()).resolves.toBe(0);
    await page.unroute(isImport);
    await context.close();
  });

  it("keeps the 500-row truncation visible after the processed toast replaces the previous one", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, adminId);
    await page.goto("/admin-escolas");
    await page.getByRole("heading", { name: "Gerenciar Escolas" }).waitFor();
    const fixture = fileURLToPath(new URL("../../server/test/fixtures/csv/rows-501.csv", import.meta.url));
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Escolher arquivo CSV" }).click()]);
    await chooser.setFiles(fixture);
    // One toast at a time: the processed toast carries the truncation as its description...
    const processed = page.locator(".mantine-Notification-root").filter({ hasText: "CSV processado:" });
    await processed.getByText("Máximo de 500 escolas por importação", { exact: true }).waitFor({ timeout: 15_000 });
    // ...and the preview keeps saying it after the toast is gone.
    const preview = page.getByTestId("csv-preview");
    await preview.getByTestId("csv-truncated").getByText("Máximo de 500 escolas por importação").waitFor();
    await expect(preview.locator("tbody tr").count()).resolves.toBe(500);
    await snap(page, "admin-csv-truncated-desktop");
    await preview.getByRole("button", { name: "Cancelar" }).click();
    await expect(page.getByTestId("csv-truncated").count()).resolves.toBe(0);
    await context.close();
  });

  it("finds imported schools in the grid, edits one and approves a staff request", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, adminId);
    await page.goto("/admin-escolas");
    await page.getByLabel("Buscar escola pelo nome").fill(`escola ${batch.toLowerCase()}`);
    await page.getByTestId("admin-schools-total").filter({ hasText: "47 escolas encontradas" }).waitFor();
    await page.locator("input[type=text], input:not([type])").and(page.getByLabel("Nicho")).click();
    await page.getByRole("option", { name: "Tecnologia" }).click();
    await page.getByTestId("admin-schools-total").filter({ hasText: "22 escolas encontradas" }).waitFor();
    await snap(page, "admin-schools-grid-desktop");

    const card = page.getByTestId("admin-school-card").filter({ hasText: `Escola ${batch} 02` });
    await card.getByRole("button", { name: "Editar" }).click();
    const dialog = page.getByRole("dialog", { name: "Editar escola" });
    const nameInput = dialog.getByLabel("Nome da escola");
    await nameInput.fill("");
    await expect(dialog.getByRole("button", { name: "Salvar" }).isDisabled()).resolves.toBe(true);
    await nameInput.fill(`Escola ${batch} 02 Editada`);
    await snap(page, "admin-school-edit-desktop");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Escola atualizada com sucesso!");
    await page.getByTestId("admin-school-card").filter({ hasText: `Escola ${batch} 02 Editada` }).waitFor();

    // A logo for the edited school: the card then shows it and offers to remove it.
    const logoPath = path.join(workDir, "logo.png");
    writeFileSync(logoPath, Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64"));
    const edited = page.getByTestId("admin-school-card").filter({ hasText: `Escola ${batch} 02 Editada` });
    const [logoChooser] = await Promise.all([page.waitForEvent("filechooser"), edited.getByRole("button", { name: "Enviar logo" }).click()]);
    await logoChooser.setFiles(logoPath);
    await toast(page, "Logo atualizada com sucesso!");
    await edited.getByRole("button", { name: "Remover logo" }).waitFor();
    await expect(edited.locator("img").getAttribute("src")).resolves.toMatch(/^\/files\/school_logos\/.+\.png$/);

    const queue = page.getByTestId("membership-queue");
    const request = queue.locator("tr").filter({ hasText: staffEmail });
    await request.getByText("Diretor(a)").waitFor();
    await request.getByRole("button", { name: "Aprovar" }).click();
    await toast(page, "Vínculo aprovado");
    // The toast comes before the queue's refetch: wait for the row to go rather than counting at once.
    await queue.locator("tr").filter({ hasText: staffEmail }).waitFor({ state: "detached" });
    await context.close();
  });

  it("shows the parents page with its summary and table", async () => {
    const { page, context } = await newPage(browser);
    await loginAs(context, adminId);
    await page.goto("/admin-escolas");
    await page.getByRole("link", { name: "Gestão de Pais" }).click();
    await page.waitForURL((u) => u.pathname === "/admin-pais");
    await page.getByRole("heading", { name: "Gestão de Pais/Responsáveis" }).waitFor();
    await page.getByText("Comprovantes enviados").waitFor();
    await statePurposeForParents(page);
    // Other scenarios add parents: find the demo parent by the page's search, as an admin would.
    await page.getByRole("searchbox", { name: adminUiMessages.parentsSearch }).fill(DEMO.parent.email);
    const row = page.locator("tbody tr").filter({ hasText: DEMO.parent.email });
    await row.waitFor();
    await expect(row.getByText("Colégio Horizonte").isVisible()).resolves.toBe(true);
    await snap(page, "admin-parents-desktop");
    await page.getByRole("link", { name: "Voltar para Gerenciar Escolas" }).click();
    await page.waitForURL((u) => u.pathname === "/admin-escolas");
    await context.close();
  });

  it("works at phone width", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await loginAs(context, adminId);
    await page.goto("/admin-escolas");
    await page.getByTestId("admin-school-card").first().waitFor();
    await snap(page, "admin-schools-phone");
    await page.goto("/admin-pais");
    await statePurposeForParents(page);
    await page.locator("tbody tr").first().waitFor();
    await snap(page, "admin-parents-phone");
    expect(await hasHorizontalScroll(page)).toBe(false);
    await context.close();
  });
});
