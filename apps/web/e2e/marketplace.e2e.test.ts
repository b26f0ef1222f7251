import { schema, type Database } from "@elo/db";
import { formatLongDate } from "@elo/shared";
import { eq, inArray } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, DESKTOP, hasHorizontalScroll, launchBrowser, loginAs, newPage, PHONE, snap } from "./support/browser";
import { e2eDatabase } from "./support/db";

/** A user with a profile, straight into the e2e database (scenarios sign in with `loginAs`). */
async function seedUser(db: Database, email: string, profile: Partial<typeof schema.profiles.$inferInsert>) {
  const [user] = await db.insert(schema.users).values({ email, passwordHash: "not-used-by-loginAs", emailConfirmedAt: new Date() }).returning({ id: schema.users.id });
  await db.insert(schema.profiles).values({ userId: user!.id, ...profile });
  return user!.id;
}

let browser: Browser;
let parentId: string;
let incompleteId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const handle = await e2eDatabase();
  try {
    const [parent] = await handle.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.parent.email));
    parentId = parent!.id;
    // The demo parent's main school joins the network, so its logo appears among the helping schools.
    const [horizonte] = await handle.db.select({ id: schema.schools.id }).from(schema.schools).where(eq(schema.schools.name, "Colégio Horizonte"));
    const staffId = await seedUser(handle.db, `secretaria.horizonte.${Date.now()}@teste.com.br`, { profileType: "institution", fullName: "Secretaria Horizonte", schoolId: horizonte!.id });
    await handle.db.insert(schema.schoolMemberships).values({ userId: staffId, schoolId: horizonte!.id, status: "approved" });
    // Same school as the demo parent, proof sent, but the profile is not complete yet.
    incompleteId = await seedUser(handle.db, `incompleto.${Date.now()}@teste.com.br`, {
      profileType: "parent", fullName: "Responsável Incompleto", schoolId: horizonte!.id, schoolName: "Colégio Horizonte", enrollmentProofSubmitted: true, profileCompleted: false,
    });
  } finally {
    await handle.close();
  }
});
afterAll(() => browser.close());

const card = (page: Page, className: string) => page.getByTestId("benefit-card").filter({ hasText: className });

describe("marketplace, claim and parent panel", () => {
  it("shows the demo parent's cards with the spec's texts and R$ amounts", async () => {
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, parentId);
    await page.goto("/home");
    await page.getByText("Descubra novas oportunidades").waitFor();
    await page.getByText("Bem-vindo ao Elo Escolar!").waitFor();
    await page.getByText("Veja abaixo os benefícios exclusivos que sua escola está te apoiando a conseguir").waitFor();
    await card(page, "Inglês Kids").waitFor();

    const kids = card(page, "Inglês Kids");
    for (const text of ["Fluent English School", "-30%", "pague apenas:", "R$ 294,00", "Os 3 primeiros meses", "depois: R$ 420,00", "8 vagas disponíveis"]) {
      await expect(kids.getByText(text, { exact: true }).first().isVisible(), text).resolves.toBe(true);
    }
    await expect(kids.getByText("Veja quem está te apoiando a conseguir este benefício:").isVisible()).resolves.toBe(true);
    await expect(kids.getByRole("img", { name: "Colégio Horizonte" }).count()).resolves.toBeGreaterThan(0);
    await expect(card(page, "Teens Conversation").getByText("1 vaga disponível", { exact: true }).isVisible()).resolves.toBe(true);
    await expect(card(page, "Robótica com Lego").getByText("R$ 234,30", { exact: true }).isVisible()).resolves.toBe(true);
    // Same niche as the parent's school, and a Bronze school: not shown.
    await expect(card(page, "1º ano - Fundamental").count()).resolves.toBe(0);
    await expect(card(page, "Violão para crianças").count()).resolves.toBe(0);
    // Gold schools first.
    const names = await page.getByTestId("benefit-card").locator("h3").allTextContents();
    expect(names.slice(0, 3).sort()).toEqual(["Espanhol Básico", "Inglês Kids", "Teens Conversation"]);
    // Three columns on a wide screen.
    const xs = await Promise.all([0, 1, 2].map(async (i) => (await page.getByTestId("benefit-card").nth(i).boundingBox())!.x));
    expect(new Set(xs).size).toBe(3);
    await snap(page, "marketplace-home-desktop");
    await context.close();
  });

  it("claims a benefit: confirmation with the voucher, then 'Desconto já aproveitado' and the panel entry", async () => {
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, parentId);
    await page.goto("/home");
    const swim = card(page, "Natação Infantil");
    await swim.waitFor();
    await swim.getByRole("button", { name: "Aproveitar benefício" }).click();

    await page.waitForURL((u) => u.pathname === "/confirmacao-desconto" && u.searchParams.has("transaction"));
    await page.getByText("Resumo do desconto escolhido:").waitFor();
    await page.getByText("Parabéns, o seu desconto está reservado!").waitFor();
    const voucher = (await page.getByTestId("voucher-code").textContent())!.trim();
    expect(voucher).toMatch(/^\d{4}-[A-Z]{4}$/);
    await expect(page.getByTestId("discounted-fee").textContent()).resolves.toBe("R$ 232,50");
    await expect(page.getByTestId("monthly-fee").textContent()).resolves.toBe("R$ 310,00");
    for (const note of ["Apresente este voucher na secretaria da escola antes do início das aulas.", "Esta reserva não é a confirmação da matrícula.", "Todas as mensalidades são pagas diretamente à escola."]) {
      await expect(page.getByText(note).isVisible()).resolves.toBe(true);
    }
    await snap(page, "marketplace-confirmation-desktop");

    await page.getByRole("link", { name: "Voltar para Home" }).click();
    await page.waitForURL((u) => u.pathname === "/home");
    const claimed = card(page, "Natação Infantil").getByRole("button", { name: "Desconto já aproveitado" });
    await claimed.waitFor();
    await expect(claimed.isDisabled()).resolves.toBe(true);
    await expect(card(page, "Natação Infantil").getByText("11 vagas disponíveis").isVisible()).resolves.toBe(true);

    await page.goto("/painel-pais");
    await page.getByRole("heading", { name: "Meu Painel de Benefícios" }).waitFor();
    const entry = page.getByTestId("panel-entry").filter({ hasText: "Natação Infantil" });
    await entry.waitFor();
    for (const text of [voucher, "Clube Aquático Vila Mariana", "-25%", "Os 2 primeiros meses", "Reservado", `Aproveitado em ${formatLongDate(new Date())}`]) {
      await expect(entry.getByText(text, { exact: true }).isVisible(), text).resolves.toBe(true);
    }
    await expect(entry.getByTestId("validity-badge").getAttribute("data-expired")).resolves.toBe("false");
    await snap(page, "parent-panel-desktop");

    // Another user's (or a made-up) transaction id: a clear page message, then /home.
    await page.goto("/confirmacao-desconto?transaction=00000000-0000-4000-8000-000000000000");
    await page.getByRole("alert").getByText("Transação não encontrada").waitFor();
    await page.waitForURL((u) => u.pathname === "/home", { timeout: 10_000 });
    // No parameter at all: straight to /home.
    await page.goto("/confirmacao-desconto");
    await page.waitForURL((u) => u.pathname === "/home");
    await context.close();
  });

  it("fits a 360 px phone: one column of cards, confirmation and panel readable", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await loginAs(context, parentId);
    await page.goto("/home");
    await card(page, "Inglês Kids").waitFor();
    const boxes = await Promise.all([0, 1].map(async (i) => (await page.getByTestId("benefit-card").nth(i).boundingBox())!));
    expect(boxes[0]!.x).toBe(boxes[1]!.x);
    expect(boxes[0]!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await snap(page, "marketplace-home-phone");
    await page.goto("/painel-pais");
    await page.getByTestId("panel-entry").first().waitFor();
    await snap(page, "parent-panel-phone");
    const handle = await e2eDatabase();
    const [claim] = await handle.db.select({ id: schema.discountTransactions.id }).from(schema.discountTransactions).where(eq(schema.discountTransactions.userId, parentId));
    await handle.close();
    await page.goto(`/confirmacao-desconto?transaction=${claim!.id}`);
    await page.getByTestId("voucher-code").waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await snap(page, "marketplace-confirmation-phone");
    await context.close();
  });

  it("shows the skeleton while loading", async () => {
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, parentId);
    await page.route("**/trpc/marketplace.list**", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto("/home");
    await page.getByTestId("benefit-skeleton").first().waitFor();
    await expect(page.getByTestId("benefit-skeleton").count()).resolves.toBe(6);
    await context.close();
  });

  it("sends an incomplete parent to /meus-dados with 'Complete seu cadastro'", async () => {
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, incompleteId);
    await page.goto("/home");
    await page.getByRole("button", { name: "Aproveitar benefício" }).first().click();
    await page.waitForURL((u) => u.pathname === "/meus-dados");
    await page.getByText("Complete seu cadastro").first().waitFor();
    await page.getByText("Para aproveitar benefícios, você precisa completar seu cadastro primeiro.").waitFor();
    await snap(page, "marketplace-incomplete-redirect");
    await context.close();
  });

  it("shows the 'Área da Escola' block to school staff", async () => {
    const handle = await e2eDatabase();
    const [staff] = await handle.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.school.email));
    await handle.close();
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, staff!.id);
    await page.goto("/home");
    await page.getByText("Área da Escola").waitFor();
    await context.close();
  });

  it("shows 24 cards first and the rest on 'Carregar mais'", async () => {
    const handle = await e2eDatabase();
    // 25 older benefits of a Gold school the demo parent sees: they sort after the demo's own.
    const [model] = await handle.db.select().from(schema.discounts).where(eq(schema.discounts.className, "Inglês Kids"));
    const { id: _id, ...base } = model!;
    const extra = await handle.db
      .insert(schema.discounts)
      .values(Array.from({ length: 25 }, (_, i) => ({ ...base, className: `Turma extra ${i + 1}`, numberOfStudents: 5, createdAt: new Date(Date.UTC(2020, 0, 1, 0, i)) })))
      .returning({ id: schema.discounts.id });
    const { page, context } = await newPage(browser, DESKTOP);
    try {
      await loginAs(context, parentId);
      await page.goto("/home");
      await card(page, "Inglês Kids").waitFor();
      await expect(page.getByTestId("benefit-card").count()).resolves.toBe(24);
      const more = page.getByRole("button", { name: "Carregar mais" });
      await more.scrollIntoViewIfNeeded();
      await snap(page, "marketplace-load-more");
      await more.click();
      // The oldest extra benefit is on the last page.
      // Exact heading: "Turma extra 1" is also a prefix of "Turma extra 10".."19" on the first page.
      await page.getByTestId("benefit-card").getByRole("heading", { name: "Turma extra 1", exact: true }).waitFor();
      const total = await page.getByTestId("benefit-card").count();
      expect(total).toBeGreaterThan(24);
      const names = await page.getByTestId("benefit-card").locator("h3").allTextContents();
      expect(new Set(names.filter((n) => n.startsWith("Turma extra"))).size).toBe(25);
      if (total < 48) await expect(more.count()).resolves.toBe(0);
    } finally {
      await context.close();
      await handle.db.delete(schema.discounts).where(inArray(schema.discounts.id, extra.map((e) => e.id)));
      await handle.close();
    }
  });
});
