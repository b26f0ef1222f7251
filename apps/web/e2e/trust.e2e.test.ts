import { schema, type DatabaseHandle } from "@elo/db";
import { and, desc, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginAs, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { fillSignupForm } from "./support/forms";
import { seedUser } from "./support/seed";

/** Issue 21: trust in who claims, through the browser. */
let browser: Browser;
let handle: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db: handle } = opened));

let seq = 0;
const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++seq}@teste.com.br`;

/** The confirmation link of the latest e-mail to `email`, read from the outbox (path and query). */
async function confirmationLink(email: string) {
  const [mail] = await handle.db
    .select({ text: schema.emailOutbox.text })
    .from(schema.emailOutbox)
    .where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, "email-confirmation")))
    .orderBy(desc(schema.emailOutbox.createdAt))
    .limit(1);
  const url = mail?.text.match(/https?:\/\/\S+\/confirmar-email\?token=[a-z0-9]+/)?.[0];
  expect(url, "confirmation link in the outbox").toBeDefined();
  const u = new URL(url!);
  return `${u.pathname}${u.search}`;
}

/** Signs a new parent up through /signup; returns the page on /home. */
async function signUpParent(page: Page, email: string, fullName = "Joana Pereira") {
  await page.goto("/signup");
  await fillSignupForm(page, email, fullName);
  await page.locator("form").getByRole("button", { name: "Criar conta" }).click();
  await page.waitForURL((u) => u.pathname === "/home", { timeout: 15_000 });
}

describe("e-mail confirmation", () => {
  it("a new parent sees 'Confirme seu e-mail' on every page, resends, opens the link, and the banner goes", async () => {
    const { page, context } = await newPage(browser);
    const email = uniqueEmail("e2e-confirma");
    await signUpParent(page, email);
    const banner = page.getByTestId("email-confirmation-banner");
    await banner.getByText("Confirme seu e-mail").waitFor();
    await page.goto("/meus-dados");
    await banner.getByText("Confirme seu e-mail").waitFor();
    await banner.getByRole("button", { name: "Reenviar e-mail" }).click();
    await page.getByText("E-mail enviado!", { exact: true }).first().waitFor();
    await snap(page, "trust-confirm-banner");

    await page.goto(await confirmationLink(email));
    await page.getByText("E-mail confirmado!").waitFor();
    await snap(page, "trust-confirmed");
    await page.goto("/home");
    await page.getByRole("heading", { name: "Descubra novas oportunidades" }).waitFor();
    expect(await banner.count()).toBe(0);
    // The link is single-use: opened again, it says so, and the account stays confirmed.
    await page.goto(await confirmationLink(email));
    await page.getByText("Seu e-mail já está confirmado.").waitFor();
    await context.close();
  });
});

const PDF = { name: "comprovante.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n") };

const schoolNamed = async (name: string) => (await handle.db.select().from(schema.schools).where(eq(schema.schools.name, name)))[0]!;

/** An approved staff member of `schoolId`, seeded (the subject here is what staff do, not how they joined). */
async function seedStaff(schoolId: string, fullName: string) {
  const id = await seedUser(handle.db, { profileType: "institution", fullName, schoolId });
  await handle.db.insert(schema.schoolMemberships).values({ userId: id, schoolId, status: "approved", position: "Secretário(a)" });
  return id;
}

describe("the issue's scenario: a verified enrollment opens a benefit that requires one", () => {
  it("signup, confirmed e-mail, proof naming Colégio Horizonte, confirmed by Horizonte on 'Confirmar matrículas'", async () => {
    const horizonte = await schoolNamed("Colégio Horizonte");
    const horizonteStaff = await seedStaff(horizonte.id, "Helena Secretária");
    const parentSide = await newPage(browser);
    const staffSide = await newPage(browser);
    try {
      // 1. The parent signs up and confirms the address from the e-mail.
      const email = uniqueEmail("e2e-verificada");
      const page = parentSide.page;
      await signUpParent(page, email, "Renata Alves");
      await page.goto(await confirmationLink(email));
      await page.getByText("E-mail confirmado!").waitFor();

      // 2. The student's data (not the subject here) go straight in; the school and the proof through /meus-dados.
      const [user] = await handle.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
      await handle.db
        .update(schema.profiles)
        .set({ phone: "11991234567", relationshipType: "Mãe", studentName: "Pedro Alves", studentBirthDate: "2015-04-02", studentCpf: "52998224725", studentAddress: "Rua dos Pinheiros, 10", studentNeighborhood: "Pinheiros", studentZipCode: "05422001", schoolId: horizonte.id, schoolName: horizonte.name, profileCompleted: true })
        .where(eq(schema.profiles.userId, user!.id));
      await page.goto("/meus-dados");
      const main = page.getByRole("tabpanel");
      await main.getByLabel("Turma e ano").fill("5º ano B");
      await main.locator('input[type="file"]').setInputFiles(PDF);
      await main.getByRole("button", { name: "Enviar" }).click();
      await page.getByText("Comprovante enviado", { exact: true }).first().waitFor();
      await main.getByText("Comprovante em análise pela escola").waitFor();

      // 3. Horizonte's staff opens the proof and confirms it.
      await loginAs(staffSide.context, horizonteStaff);
      const staff = staffSide.page;
      await staff.goto("/confirmar-matriculas");
      const card = staff.getByTestId("proof-card").filter({ hasText: "Pedro Alves" });
      await card.getByText("Renata Alves").waitFor();
      await card.getByText("5º ano B").waitFor();
      const [tab] = await Promise.all([staffSide.context.waitForEvent("page"), card.getByRole("button", { name: "Ver comprovante" }).click()]);
      await tab.waitForURL(/\/files\/enrollment_proofs\//, { timeout: 10_000 });
      await tab.close();
      await snap(staff, "trust-confirm-enrollments");
      await card.getByRole("button", { name: "Confirmar" }).click();
      await staff.getByText("Matrícula confirmada", { exact: true }).first().waitFor();
      await staff.getByRole("region", { name: "Decididas nos últimos 30 dias" }).getByText("Pedro Alves").waitFor();
      const [opened] = await handle.db.select().from(schema.enrollmentProofViews).where(eq(schema.enrollmentProofViews.viewerId, horizonteStaff));
      expect(opened).toBeDefined();

      // 4. The parent sees who verified the enrollment.
      await page.goto("/meus-dados");
      await page.getByRole("tabpanel").getByText("Matrícula verificada por Colégio Horizonte em").waitFor();
      await snap(page, "trust-parent-verified");
    } finally {
      await parentSide.context.close();
      await staffSide.context.close();
      // Horizonte has no staff in the demo world; other scenarios count on that.
      await handle.db.delete(schema.schoolMemberships).where(eq(schema.schoolMemberships.userId, horizonteStaff));
    }
  });
});
