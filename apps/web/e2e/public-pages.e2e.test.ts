import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "@elo/db";
import { sql } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, hasHorizontalScroll, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";

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
});
