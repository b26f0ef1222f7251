import { schema, type DatabaseHandle } from "@elo/db";
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO, hasHorizontalScroll, loginAs, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { seedCompleteParent, seedSchool, seedStaff } from "./support/seed";

/** Issue 27: the parent sees who opened their child's proof, and why, in Portuguese, on a phone and a desktop. */
let browser: Browser;
let handle: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db: handle } = opened));

const userByEmail = async (email: string) => (await handle.db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).where(eq(schema.users.email, email)))[0]!;

/** Clicks 'Ver comprovante' on the card of `student` and waits for the file to download. */
async function openProof(page: Page, student: string, beforeDownload?: () => Promise<void>) {
  const card = page.getByTestId("proof-card").filter({ hasText: student }).filter({ hasText: "Tomás Tavares" });
  if (!beforeDownload) {
    const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("button", { name: "Ver comprovante" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^comprovante\./);
    return card;
  }
  await card.getByRole("button", { name: "Ver comprovante" }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), beforeDownload()]);
  expect(download.suggestedFilename()).toMatch(/^comprovante\./);
  return card;
}

describe("'Quem viu os dados do meu filho'", () => {
  it("Colégio Horizonte's staff open and confirm a proof; an administrator opens another with a purpose; the parent sees both, at 375 px and 1280 px", async () => {
    const [horizonte] = await handle.db.select().from(schema.schools).where(eq(schema.schools.name, "Colégio Horizonte"));
    const aurora = await seedSchool(handle.db, `Escola Aurora ${Date.now()}`, "Ed. Básica", "Pinheiros");
    const staffId = await seedStaff(handle.db, horizonte!, "Helena Souza");
    await handle.db.update(schema.schoolMemberships).set({ position: "Secretário(a)" }).where(eq(schema.schoolMemberships.userId, staffId));
    const parentId = await seedCompleteParent(handle.db, "Lúcia Tavares", horizonte!);
    const [enrollment] = await handle.db.insert(schema.enrollments).values({ userId: parentId, schoolId: aurora.id, institutionName: aurora.name, studentName: "Tomás Tavares" }).returning();
    // The demo parent's stored proof stands in for both files (the subject here is who opened them).
    const demoParent = await userByEmail(DEMO.parent.email);
    const fileKey = `${demoParent.id}/proof-demo.pdf`;
    await handle.db.insert(schema.enrollmentProofs).values([
      { userId: parentId, schoolId: horizonte!.id, fileKey, studentName: "Tomás Tavares", declaredClass: "5º ano B" },
      { userId: parentId, schoolId: aurora.id, enrollmentId: enrollment!.id, fileKey, studentName: "Tomás Tavares", declaredClass: "Inglês 2" },
    ]);
    const admin = await userByEmail(DEMO.admin.email);
    const staffSide = await newPage(browser);
    const adminSide = await newPage(browser);
    const parentSide = await newPage(browser);
    try {
      // 1. Horizonte's staff open the proof and confirm it.
      await loginAs(staffSide.context, staffId);
      const staff = staffSide.page;
      await staff.goto("/confirmar-matriculas");
      const card = await openProof(staff, "Tomás Tavares");
      await card.getByRole("button", { name: "Confirmar" }).click();
      await staff.getByText("Matrícula confirmada", { exact: true }).first().waitFor();

      // 2. The administrator opens the other proof (Aurora has no staff: the admin's queue) only after choosing why.
      await loginAs(adminSide.context, admin.id);
      const desk = adminSide.page;
      await desk.goto("/admin-pais");
      const dialog = desk.getByRole("dialog", { name: "Por que você vai abrir estes dados?" });
      await openProof(desk, "Inglês 2", async () => {
        await dialog.waitFor();
        // Without a purpose, the dialog says what is missing and opens nothing.
        await dialog.getByRole("button", { name: "Abrir com esta finalidade" }).click();
        await dialog.getByText("Escolha a finalidade do acesso", { exact: false }).waitFor();
        await snap(desk, "access-log-admin-purpose", { fullPage: false });
        await dialog.getByLabel("Finalidade do acesso").click();
        await desk.getByRole("option", { name: "revisão pelo administrador" }).click();
        await dialog.getByRole("button", { name: "Abrir com esta finalidade" }).click();
      });
      const rows = await handle.db.select().from(schema.enrollmentProofViews).where(eq(schema.enrollmentProofViews.viewerId, admin.id));
      expect(rows.filter((r) => r.purpose === "revisao_administrador").length).toBeGreaterThanOrEqual(1);
      const parentEmail = (await handle.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, parentId)))[0]!.email;
      const mails = await handle.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, parentEmail), eq(schema.emailOutbox.kind, "proof-opened-by-admin")));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toMatch(/A administração do Elo Escolar abriu o comprovante de matrícula de Tomás Tavares em \d{2}\/\d{2}\/\d{4} para: revisão pelo administrador\./);

      // 3. The parent sees both on /privacidade-lgpd, on a desktop and on a phone.
      await loginAs(parentSide.context, parentId);
      const page = parentSide.page;
      await page.goto("/privacidade-lgpd");
      const whoSaw = page.getByTestId("who-saw");
      await whoSaw.getByRole("heading", { name: "Quem viu os dados do meu filho" }).waitFor();
      const lines = whoSaw.getByTestId("who-saw-row");
      await lines.filter({ hasText: "Administração Elo Escolar" }).filter({ hasText: "Finalidade: revisão pelo administrador" }).waitFor();
      await lines.filter({ hasText: "Colégio Horizonte" }).filter({ hasText: "Abriu o comprovante de matrícula" }).filter({ hasText: "Helena" }).waitFor();
      await lines.filter({ hasText: "Colégio Horizonte" }).filter({ hasText: "Confirmou a matrícula" }).waitFor();
      expect(await lines.count()).toBe(3);
      expect(await lines.first().textContent()).toMatch(/\d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/);
      const shared = page.getByTestId("shared-with");
      await shared.getByRole("heading", { name: "Com quem seus dados foram compartilhados" }).waitFor();
      await shared.getByTestId("shared-row").filter({ hasText: "Colégio Horizonte" }).waitFor();
      // Aurora's proof was opened only by the administration: Aurora received nothing.
      expect(await shared.getByTestId("shared-row").filter({ hasText: aurora.name }).count()).toBe(0);
      await shared.getByText("Armazenamento de arquivos").waitFor();
      expect(await hasHorizontalScroll(page)).toBe(false);
      await snap(page, "access-log-parent-1280");
      await page.setViewportSize({ width: 375, height: 800 });
      await lines.filter({ hasText: "Administração Elo Escolar" }).waitFor();
      expect(await hasHorizontalScroll(page)).toBe(false);
      await snap(page, "access-log-parent-375");
    } finally {
      await staffSide.context.close();
      await adminSide.context.close();
      await parentSide.context.close();
      // Horizonte has no staff in the demo world: other scenarios count on that.
      await handle.db.delete(schema.schoolMemberships).where(eq(schema.schoolMemberships.userId, staffId));
    }
  });
});

describe("the administrators' parents table (decision 192)", () => {
  it("loads only after a stated purpose; the parent listed sees that listing in 'Quem viu', at 375 px and 1280 px", async () => {
    const [horizonte] = await handle.db.select().from(schema.schools).where(eq(schema.schools.name, "Colégio Horizonte"));
    const parentId = await seedCompleteParent(handle.db, "Marina Listada", horizonte!);
    const parentEmail = (await handle.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, parentId)))[0]!.email;
    const admin = await userByEmail(DEMO.admin.email);
    const adminSide = await newPage(browser);
    const parentSide = await newPage(browser);
    try {
      await loginAs(adminSide.context, admin.id);
      const desk = adminSide.page;
      await desk.goto("/admin-pais");
      const ask = desk.getByTestId("parents-purpose");
      await ask.getByText("A lista de responsáveis só aparece depois de você dizer a finalidade.").waitFor();
      // No table, and no listing recorded, before the purpose.
      expect(await desk.locator("tbody tr").filter({ hasText: parentEmail }).count()).toBe(0);
      await ask.getByRole("button", { name: "Ver a lista com uma finalidade" }).click();
      const dialog = desk.getByRole("dialog", { name: "Por que você vai ver a lista de responsáveis?" });
      await dialog.getByRole("button", { name: "Ver a lista com esta finalidade" }).click();
      await dialog.getByText("Escolha a finalidade do acesso", { exact: false }).waitFor();
      await dialog.getByLabel("Finalidade do acesso").click();
      await desk.getByRole("option", { name: "suporte com número do chamado" }).click();
      await dialog.getByRole("button", { name: "Ver a lista com esta finalidade" }).click();
      await dialog.getByText("Informe o número do chamado de suporte.").waitFor();
      await dialog.getByLabel("Número do chamado").fill("CH-2031");
      await snap(desk, "access-log-admin-list-purpose", { fullPage: false });
      await dialog.getByRole("button", { name: "Ver a lista com esta finalidade" }).click();
      await desk.getByText("Finalidade registrada para esta lista: suporte com número do chamado CH-2031.").waitFor();
      await desk.getByLabel("Buscar por nome, aluno, escola ou e-mail").fill(parentEmail);
      await desk.locator("tbody tr").filter({ hasText: parentEmail }).waitFor();
      const rows = await handle.db.select().from(schema.parentListingViews).where(eq(schema.parentListingViews.holderId, parentId));
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(rows.every((r) => r.purpose === "suporte" && r.ticket === "CH-2031" && r.viewerId === admin.id && !!r.requestId)).toBe(true);
      await snap(desk, "access-log-admin-list-1280");

      await loginAs(parentSide.context, parentId);
      const page = parentSide.page;
      await page.goto("/privacidade-lgpd");
      const whoSaw = page.getByTestId("who-saw");
      const line = whoSaw.getByTestId("who-saw-row").filter({ hasText: "Viu seu nome, e-mail e o nome do aluno na lista de responsáveis" });
      await line.first().waitFor();
      const text = (await line.first().textContent()) ?? "";
      expect(text).toContain("Administração Elo Escolar");
      expect(text).toContain("Finalidade: suporte com número do chamado CH-2031");
      expect(text).toMatch(/\d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await snap(page, "access-log-parent-listing-1280");
      await page.setViewportSize({ width: 375, height: 800 });
      await line.first().waitFor();
      expect(await hasHorizontalScroll(page)).toBe(false);
      await snap(page, "access-log-parent-listing-375");
    } finally {
      await adminSide.context.close();
      await parentSide.context.close();
    }
  });
});

describe("the incidents register", () => {
  it("an administrator records an incident on /admin-pais and sees it listed", async () => {
    const admin = await userByEmail(DEMO.admin.email);
    const { page, context } = await newPage(browser);
    try {
      await loginAs(context, admin.id);
      await page.goto("/admin-pais");
      const register = page.getByTestId("incidents");
      await register.getByRole("heading", { name: "Incidentes de segurança" }).waitFor();
      await register.getByRole("button", { name: "Registrar incidente" }).click();
      const dialog = page.getByRole("dialog", { name: "Registrar incidente" });
      const title = `Conta de escola acessada por terceiro ${Date.now()}`;
      await dialog.getByLabel("O que aconteceu").fill(title);
      await dialog.getByLabel("Detectado em").fill("2026-03-12T10:00");
      await dialog.getByLabel("Início da janela").fill("2026-03-10T00:00");
      await dialog.getByLabel("Fim da janela").fill("2026-03-12T00:00");
      await dialog.getByLabel("Natureza dos dados afetados").fill("Comprovantes de matrícula");
      await dialog.getByLabel("Contas afetadas").fill("2");
      await dialog.getByLabel("Crianças envolvidas").fill("3");
      // Without the measures, the server says what is missing.
      await dialog.getByRole("button", { name: "Registrar incidente" }).click();
      await page.getByText("Diga quais medidas foram ou serão adotadas.").first().waitFor();
      await dialog.getByLabel("Medidas adotadas").fill("Senha redefinida; escola avisada.");
      await dialog.getByRole("button", { name: "Registrar incidente" }).click();
      await page.getByText("Incidente registrado", { exact: true }).first().waitFor();
      await register.getByText(title).waitFor();
      await register.getByText("Contas afetadas: 2 · Crianças envolvidas: 3").waitFor();
      await snap(page, "access-log-incidents");

      // Edited after it was recorded: status and the communication to the ANPD; the history keeps the edit (decision 195).
      const incident = register.getByTestId("incident").filter({ hasText: title });
      await incident.getByRole("button", { name: "Atualizar" }).click();
      const edit = page.getByRole("dialog", { name: `Atualizar incidente: ${title}` });
      await edit.getByLabel("Situação").click();
      await page.getByRole("option", { name: "Contido" }).click();
      await edit.getByLabel("Comunicado à ANPD em").fill("2026-03-13T09:00");
      await edit.getByRole("button", { name: "Atualizar" }).click();
      await page.getByText("Incidente atualizado", { exact: true }).first().waitFor();
      await incident.getByText("Contido", { exact: true }).waitFor();
      await incident.getByTestId("incident-history").getByText("Situação, Comunicado à ANPD em", { exact: false }).waitFor();
      await snap(page, "access-log-incident-edited");
    } finally {
      await context.close();
    }
  });
});
