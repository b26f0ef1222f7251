import { randomUUID } from "node:crypto";
import { schema, type DatabaseHandle } from "@elo/db";
import { normalizeKey } from "@elo/shared";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, hasHorizontalScroll, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { fillSignupForm } from "./support/forms";
import { seedBenefit, seedPlan, seedSchool, seedStaff } from "./support/seed";

let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

const PHONE_375 = { width: 375, height: 740 };

/** A school of the network in Porto Alegre (approved staff, Gold plan) with one benefit, and a neighbour without staff. */
async function seedPortoAlegre() {
  const schoolId = randomUUID();
  const userId = randomUUID();
  const tag = schoolId.slice(0, 6);
  await db.db.execute(sql`insert into schools (id, name, name_key, uf, city, neighborhood, category_id, origin)
    values (${schoolId}, ${`Escola de Idiomas Guaíba ${tag}`}, ${`escola de idiomas guaiba ${tag}`}, 'RS', 'Porto Alegre', 'Moinhos de Vento', (select id from categories where name = 'Idiomas'), 'admin')`);
  await db.db.execute(sql`insert into schools (name, name_key, uf, city, neighborhood, category_id, origin)
    values (${`Colégio Farroupilha Sem Equipe ${tag}`}, ${`colegio farroupilha sem equipe ${tag}`}, 'RS', 'Porto Alegre', 'Centro', (select id from categories where name = 'Ed. Básica'), 'admin')`);
  await db.db.execute(sql`insert into users (id, email, password_hash) values (${userId}, ${`staff.${tag}@teste.com.br`}, 'x')`);
  await db.db.execute(sql`insert into profiles (user_id, profile_type, full_name) values (${userId}, 'institution', 'Equipe')`);
  await db.db.execute(sql`insert into school_memberships (user_id, school_id, status) values (${userId}, ${schoolId}, 'approved')`);
  await db.db.execute(sql`insert into subscriptions (school_id, plan_type) values (${schoolId}, 'gold')`);
  await db.db.execute(sql`insert into discounts (school_id, teaching_stage, category_id, modality_id, class_name, class_period, discount_scope, monthly_fee, discount_percentage, discounted_fee, discount_validity, number_of_students)
    values (${schoolId}, 'iniciante', (select id from categories where name = 'Idiomas'), (select m.id from modalities m join categories c on c.id = m.category_id where c.name = 'Idiomas' limit 1),
      'Inglês para crianças', 'tarde', 'city', 450, 30, 315, 'first_3_months', 8)`);
  return { schoolId, tag };
}

describe("public pages in the browser (issue 26)", () => {
  it("with JavaScript off, a family finds a city page and a school page and reads the benefit", async () => {
    const { schoolId, tag } = await seedPortoAlegre();
    for (const [label, viewport] of [["375", PHONE_375], ["1280", DESKTOP]] as const) {
      const context = await browser.newContext({ baseURL: (await import("./support/browser")).baseUrl(), viewport, locale: "pt-BR", javaScriptEnabled: false });
      const page = await context.newPage();
      try {
        await page.goto("/escolas");
        await expect(page.getByRole("heading", { level: 1 })).toBeTruthy();
        expect(await page.locator("h1").textContent()).toBe("Escolas da rede Elo Escolar");
        await snap(page, `public-states-${label}`);
        await page.getByRole("link", { name: "Rio Grande do Sul (RS)" }).click();
        expect(page.url()).toMatch(/\/escolas\/rs$/);
        await snap(page, `public-state-${label}`);
        await page.getByRole("link", { name: "Porto Alegre (RS)" }).click();
        expect(page.url()).toMatch(/\/escolas\/rs\/porto-alegre$/);
        expect(await page.locator("h1").textContent()).toBe("Escolas e descontos em Porto Alegre (RS)");
        expect(await page.locator("body").innerText()).toContain(`Colégio Farroupilha Sem Equipe ${tag}`);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await snap(page, `public-city-${label}`);
        await page.locator("ul.links").getByRole("link", { name: `Escola de Idiomas Guaíba ${tag}` }).click();
        expect(page.url()).toContain(`/escolas/rs/porto-alegre/${schoolId}-escola-de-idiomas-guaiba-${tag}`);
        const text = await page.locator("body").innerText();
        for (const piece of ["Inglês para crianças", "R$ 450,00", "R$ 315,00", "30% de desconto", "Os 3 primeiros meses", "Quero este desconto", "Compartilhar no WhatsApp", "Benefícios para alunos desta escola"]) expect(text).toContain(piece);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await snap(page, `public-school-${label}`);
        // The search box is a plain GET form the server answers.
        await page.goto("/escolas");
        await page.getByLabel("Buscar escola ou cidade").fill("guaiba");
        await page.getByRole("button", { name: "Buscar" }).click();
        expect(page.url()).toContain("/escolas?q=guaiba");
        expect(await page.locator("body").innerText()).toContain(`Escola de Idiomas Guaíba ${tag}`);
        await snap(page, `public-search-${label}`);
        const missing = await page.goto("/escolas/rs/porto-alegre/nada-aqui");
        expect(missing?.status()).toBe(404);
        await snap(page, `public-404-${label}`);
      } finally {
        await context.close();
      }
    }
  });

  it("'Quero este desconto' takes a visitor to the signup form with the benefit, and the SPA's own pages still load", async () => {
    const { schoolId, tag } = await seedPortoAlegre();
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`/escolas/rs/porto-alegre/${schoolId}-escola-de-idiomas-guaiba-${tag}`);
      await page.getByRole("link", { name: "Quero este desconto" }).first().click();
      await page.waitForURL(/\/signup\?beneficio=/);
      await page.getByRole("button", { name: /Cadastrar|Criar conta/ }).first().waitFor();
      const unknown = await page.goto("/uma-rota-que-nao-existe");
      expect(unknown?.status()).toBe(404);
    } finally {
      await context.close();
    }
  });

  it("from a school page, 'Quero este desconto' goes through signup and the confirmation e-mail to a claimed voucher", async () => {
    const tag = randomUUID().slice(0, 6);
    const offering = await seedSchool(db.db, `Escola de Música Pública ${tag}`, "Idiomas", "Pinheiros");
    await seedPlan(db.db, offering.id, "gold");
    await seedStaff(db.db, offering, "Equipe da Música");
    const benefit = await seedBenefit(db.db, offering, `Violão em grupo ${tag}`, { scope: "all_except_own" });
    const main = await seedSchool(db.db, `Colégio da Família ${tag}`, "Ed. Básica", "Pinheiros");
    const slug = normalizeKey(offering.name).replace(/[^a-z0-9]+/g, "-");
    const email = `e2e.publica.${Date.now()}@teste.com.br`;
    const { context, page } = await newPage(browser, PHONE_375);
    try {
      await page.goto(`/escolas/sp/sao-paulo/${offering.id}-${slug}`);
      await page.locator(`#beneficio-${benefit.id}`).getByRole("link", { name: "Quero este desconto" }).click();
      await page.waitForURL((u) => u.pathname === "/signup" && u.searchParams.get("beneficio") === benefit.id);
      await fillSignupForm(page, email, "Marta Família");
      await page.locator("form").getByRole("button", { name: "Criar conta" }).click();
      await page.waitForURL((u) => u.pathname === "/home" && u.searchParams.get("beneficio") === benefit.id, { timeout: 15_000 });

      // The confirmation e-mail's link carries the benefit; its page leads back to it.
      const [mail] = await db.db
        .select({ text: schema.emailOutbox.text })
        .from(schema.emailOutbox)
        .where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, "email-confirmation")))
        .orderBy(desc(schema.emailOutbox.createdAt))
        .limit(1);
      const link = mail?.text?.match(/https?:\/\/\S+\/confirmar-email\?token=[a-z0-9]+&beneficio=[0-9a-f-]{36}/)?.[0];
      expect(link, "confirmation link with the benefit").toBeDefined();
      const url = new URL(link!);
      await page.goto(`${url.pathname}${url.search}`);
      await page.getByText("E-mail confirmado!").waitFor();
      // What 'Meus Dados' would record (main school, complete profile, proof sent): seeded, as other scenarios do.
      await db.db
        .update(schema.profiles)
        .set({ schoolId: main.id, schoolName: main.name, profileCompleted: true, enrollmentProofSubmitted: true, phone: "11991234567", relationshipType: "Mãe", studentName: "Aluno da Marta" })
        .where(eq(schema.profiles.userId, sql`(select id from users where email = ${email})`));
      await page.getByRole("link", { name: "Ver o desconto escolhido" }).click();
      await page.waitForURL((u) => u.pathname === "/home" && u.searchParams.get("beneficio") === benefit.id);
      const chosen = page.locator(`[data-chosen="true"]`);
      await chosen.getByText(`Violão em grupo ${tag}`).waitFor();
      await snap(page, "public-chosen-benefit-375");
      const claimButton = chosen.getByRole("button", { name: "Aproveitar benefício" });
      await claimButton.waitFor({ timeout: 15_000 }).catch(async (cause: unknown) => {
        throw new Error(`the chosen card offers no claim; it reads: ${await chosen.innerText()}`, { cause });
      });
      await claimButton.click();
      await page.waitForURL((u) => u.pathname === "/confirmacao-desconto", { timeout: 15_000 });
      await page.getByText("Parabéns, o seu desconto está reservado!").waitFor();
      const [voucher] = await db.db
        .select({ code: schema.discountTransactions.voucherCode })
        .from(schema.discountTransactions)
        .where(eq(schema.discountTransactions.discountId, benefit.id));
      expect(voucher?.code).toMatch(/^[1-9]\d{3}-[A-Z]{4}$/);
      await snap(page, "public-claimed-375");
    } finally {
      await context.close();
    }
  });
});
