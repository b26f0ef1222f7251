import { schema } from "@elo/db";
import { PARENT_FAQ } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eDatabase } from "./support/db";
import { baseUrl, DESKTOP, hasHorizontalScroll, launchBrowser, newPage, PHONE, snap } from "./support/browser";
import { fillSignupForm } from "./support/forms";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());


async function closeBanner(page: Page) {
  const banner = page.getByRole("dialog", { name: "Destaque da rede" });
  await banner.waitFor();
  await banner.getByRole("button", { name: "Fechar" }).click();
  await banner.waitFor({ state: "hidden" });
}

describe("parents' landing (/)", () => {
  it("paints with the page's own files and starts the app's code only once the page has loaded (decision 216)", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/");
    await page.locator("html[data-hydrated]").waitFor();
    const { loadAt, scripts } = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const scripts = performance
        .getEntriesByType("resource")
        .filter((r) => /\/assets\/.*\.js$/.test(new URL(r.name).pathname))
        .map((r) => ({ name: new URL(r.name).pathname, startTime: r.startTime }));
      return { loadAt: nav.loadEventStart, scripts };
    });
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s.startTime, s.name).toBeGreaterThanOrEqual(loadAt);
    await context.close();
  });

  it("still starts the app when an image hangs and the page is slow to finish loading", async () => {
    const { page, context } = await newPage(browser);
    // The hero illustration answers after 8 s: the window's load event waits for it.
    await page.route("**/illustrations/hero-parents.svg", async (route) => {
      await new Promise((r) => setTimeout(r, 8000));
      await route.continue().catch(() => {});
    });
    await page.addInitScript(`
      new MutationObserver(() => {
        window.__hydratedAt ??= document.documentElement.hasAttribute("data-hydrated") ? performance.now() : undefined;
      }).observe(document, { attributes: true, subtree: true });
    `);
    await page.goto("/");
    const { hydratedAt, loadAt } = await page.evaluate(() => ({
      hydratedAt: (window as unknown as { __hydratedAt?: number }).__hydratedAt ?? NaN,
      loadAt: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventStart,
    }));
    expect(loadAt).toBeGreaterThan(7000);
    expect(hydratedAt).toBeLessThan(loadAt);
    await context.close();
  });

  it("opens the promotional banner after about 1 s, showing the Gold school, and closes it", async () => {
    const { page, context } = await newPage(browser);
    // The page notes (on its own clock, from navigation start) when the heading and the dialog
    // first enter the DOM, so the test's own latency does not blur the measure.
    await page.addInitScript(`
      new MutationObserver(() => {
        window.__h1At ??= document.querySelector("h1") ? performance.now() : undefined;
        window.__dialogAt ??= document.querySelector('[role="dialog"]') ? performance.now() : undefined;
      }).observe(document, { childList: true, subtree: true });
    `);
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    const banner = page.getByRole("dialog", { name: "Destaque da rede" });
    await banner.waitFor();
    const { h1At, dialogAt } = await page.evaluate<{ h1At: number; dialogAt: number }>("({ h1At: window.__h1At ?? NaN, dialogAt: window.__dialogAt ?? NaN })");
    // The banner mounts with the page: it must wait its 1 s after that, not open with the page
    // (or as soon as its data arrives). The upper bound only catches a banner that waits for something
    // else: a loaded CI machine took 3.3 s (the spec's "about 1 s" is the lower bounds' job).
    expect(dialogAt).toBeGreaterThanOrEqual(950);
    expect(dialogAt - h1At).toBeGreaterThanOrEqual(950);
    expect(dialogAt - h1At).toBeLessThan(10_000);
    // A Gold school of the network (the demo world's, or one another scenario made Gold earlier).
    const shown = await banner.getByRole("heading", { level: 3 }).textContent();
    const handle = await e2eDatabase();
    try {
      const gold = await handle.db
        .select({ name: schema.schools.name })
        .from(schema.schools)
        .innerJoin(schema.subscriptions, eq(schema.subscriptions.schoolId, schema.schools.id))
        .where(eq(schema.subscriptions.planType, "gold"));
      expect(gold.map((g) => g.name)).toContain(shown);
    } finally {
      await handle.close();
    }
    await banner.getByText(/% de desconto em/).waitFor();
    await snap(page, "landing-banner-desktop");
    await banner.getByRole("button", { name: "Fechar" }).click();
    await banner.waitFor({ state: "hidden" });

    // And by keyboard, on a second visit.
    await page.reload();
    await page.getByRole("dialog", { name: "Destaque da rede" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Destaque da rede" }).waitFor({ state: "hidden" });
    await context.close();
  });

  it("opens one FAQ item at a time, collapsible, by mouse and keyboard", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/#faq");
    await closeBanner(page);
    const faq = page.locator("#faq");
    const questions = faq.getByRole("button");
    expect(await questions.count()).toBe(PARENT_FAQ.length);
    const first = questions.nth(0);
    const second = questions.nth(1);
    await first.click();
    expect(await first.getAttribute("aria-expanded")).toBe("true");
    await faq.getByText("Não é um site de bolsas de estudo.", { exact: false }).waitFor();
    await second.click();
    expect(await second.getAttribute("aria-expanded")).toBe("true");
    expect(await first.getAttribute("aria-expanded")).toBe("false");
    await second.click();
    expect(await second.getAttribute("aria-expanded")).toBe("false");
    // The last question: how to reach the team.
    const last = questions.nth(PARENT_FAQ.length - 1);
    await last.focus();
    await page.keyboard.press("Enter");
    expect(await last.getAttribute("aria-expanded")).toBe("true");
    await faq.getByText("contato@eloescolar.com.br", { exact: false }).waitFor();
    await page.keyboard.press("Space");
    expect(await last.getAttribute("aria-expanded")).toBe("false");
    await context.close();
  });

  it("has the hero actions, the steps, the call to action and the footer", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/");
    await closeBanner(page);
    await page.getByRole("main").getByRole("link", { name: "Efetuar login" }).first().waitFor();
    await page.getByRole("main").getByRole("link", { name: "Criar conta", exact: true }).waitFor();
    await page.getByRole("link", { name: "Criar conta grátis" }).waitFor();
    const footer = page.getByRole("contentinfo");
    await footer.getByText("© 2025 Elo Escolar", { exact: false }).waitFor();
    expect(await footer.getByRole("link", { name: "Termos de Uso e Política de Privacidade" }).getAttribute("href")).toBe("/termos-de-uso-e-privacidade.pdf");
    const pdf = await page.request.get("/termos-de-uso-e-privacidade.pdf");
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    await snap(page, "landing-parents-desktop");
    await context.close();
  });

  it("fits a 360 px screen with no horizontal scroll", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await page.goto("/");
    await closeBanner(page);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await snap(page, "landing-parents-phone");
    await context.close();
  });
});

describe("schools' landing (/para-escolas)", () => {
  it("shows the headline, the plans with the Gold offer, and a visitor choosing Gold keeps it through signup", async () => {
    const { page, context } = await newPage(browser, DESKTOP);
    await page.goto("/para-escolas");
    await page.getByRole("heading", { name: "O benefício que faltava na sua escola." }).waitFor();
    await page.getByText("Conquistar um aluno novo pode custar até 7 vezes mais", { exact: false }).waitFor();
    const gold = page.getByRole("article", { name: "Gold" });
    await gold.getByText("Melhor oferta").waitFor();
    await gold.getByText("R$ 49,90").waitFor();
    expect(await page.getByText("Assinatura 100% gratuita por tempo limitado", { exact: true }).count()).toBe(2);
    expect(await page.locator("#faq").count()).toBe(1);
    await snap(page, "landing-schools-desktop");
    await gold.getByRole("link", { name: "Escolher Gold" }).click();
    await page.waitForURL((u) => u.pathname === "/signup" && u.searchParams.get("profile") === "institution" && u.searchParams.get("plan") === "gold");
    await page.getByText("A escola será escolhida depois, em 'Meus Dados'.").waitFor();
    await fillSignupForm(page, `e2e-plano.${Date.now()}@teste.com.br`);
    await page.locator("form").getByRole("button", { name: "Criar conta" }).click();
    await page.waitForURL((u) => u.pathname === "/confirmacao-plano" && u.searchParams.get("plan") === "gold", { timeout: 10_000 });
    // A new institution account has no approved school yet: the page says what the choice needs.
    await page.getByText("Você escolheu o plano Gold.", { exact: false }).waitFor();
    await snap(page, "plan-after-signup-desktop");
    await context.close();
  });

  it("sends a logged-out visitor of /confirmacao-plano to login, keeping the plan for login and signup", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/confirmacao-plano?plan=silver");
    await page.waitForURL((u) => u.pathname === "/login" && u.searchParams.get("plan") === "silver");
    const signup = page.locator("form").getByRole("link", { name: "Criar conta", exact: true });
    const href = new URL((await signup.getAttribute("href"))!, "http://x");
    expect(href.pathname).toBe("/signup");
    expect(href.searchParams.get("plan")).toBe("silver");
    expect(href.searchParams.get("profile")).toBe("institution");
    await context.close();
  });

  it("keeps the contact form in place while the FAQ's accordion code loads after the first paint", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      // A page of its own: newPage's navigation waits for the network to go quiet, and here the
      // accordion's code is held back on purpose.
      const context = await browser.newContext({ baseURL: baseUrl(), viewport, locale: "pt-BR" });
      const page = await context.newPage();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/FaqAccordion[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      // The page arrives rendered (decision 163): the questions are there before the accordion's code.
      await page.goto("/para-escolas");
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.locator("#faq").getByRole("button").first().waitFor();
      const faqHeight = () => page.locator("#faq").evaluate((e) => Math.round(e.getBoundingClientRect().height));
      const whileLoading = await faqHeight();
      release();
      // Once its code is there (and React has hydrated that part) the accordion answers: a question opens.
      await page.waitForLoadState("networkidle");
      const first = page.locator("#faq").getByRole("button").first();
      await expect
        .poll(async () => {
          if ((await first.getAttribute("aria-expanded")) !== "true") await first.click();
          return first.getAttribute("aria-expanded");
        }, { timeout: 20_000, interval: 500 })
        .toBe("true");
      await first.click();
      await page.locator("#faq").getByRole("button", { expanded: true }).waitFor({ state: "detached" });
      await expect.poll(faqHeight).toBe(whileLoading);
      await context.close();
    }
  });

  it("rejects the contact form without a subject, then sends a valid message", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/para-escolas");
    const form = page.getByRole("region", { name: "Fale com a gente" });
    const stamp = `E2E ${Date.now()}`;
    await form.getByLabel("Nome").fill(stamp);
    await form.getByLabel("Email").fill("contato.e2e@teste.com.br");
    await form.getByLabel("Mensagem").fill("Gostaria de saber mais sobre o plano Gold.");
    await form.getByRole("button", { name: "Enviar mensagem" }).click();
    await form.getByText("Selecione um assunto").last().waitFor();
    await form.getByLabel("Assunto").first().click();
    await page.getByRole("option", { name: "Benefícios" }).click();
    await form.getByRole("button", { name: "Enviar mensagem" }).click();
    await page.getByText("Mensagem enviada!").waitFor();
    await page.getByText("Entraremos em contato em breve.").waitFor();
    expect(await form.getByLabel("Nome").inputValue()).toBe("");

    const handle = await e2eDatabase();
    try {
      const list = await handle.db
        .select({ subject: schema.contactMessages.subject, email: schema.contactMessages.email })
        .from(schema.contactMessages)
        .where(eq(schema.contactMessages.name, stamp));
      expect(list).toEqual([{ subject: "Benefícios", email: "contato.e2e@teste.com.br" }]);
    } finally {
      await handle.close();
    }
    await context.close();
  });

  it("fits a 360 px screen with no horizontal scroll", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await page.goto("/para-escolas");
    await page.getByRole("heading", { name: "O benefício que faltava na sua escola." }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await snap(page, "landing-schools-phone");
    await context.close();
  });
});

describe("the prerendered landing pages' markup", () => {
  /**
   * What Mantine's server rendering itself emits, which no prop of ours changes: its CSS variables
   * and responsive styles as `<style>` inside the page's root, and the Burger's bars as a `<div>` in
   * its `<button>`. Browsers accept both; everything else must be valid (the standard preset, as
   * the public school pages are checked in apps/server/test/public-pages/html-valid).
   */
  const mantineOwn = (message: string, before: string) =>
    message === "<style> element is not permitted as content under <div>" ||
    (message === "<div> element is not permitted as content under <button>" && before.includes("mantine-Burger-root"));

  it("/ and /para-escolas are valid HTML, apart from Mantine's own server markup", async () => {
    const { HtmlValidate } = await import("html-validate");
    const validator = new HtmlValidate({ extends: ["html-validate:standard"] });
    for (const path of ["/", "/para-escolas"]) {
      const html = await (await fetch(baseUrl() + path)).text();
      expect(html, path).toContain("data-prerendered");
      const lines = html.split("\n");
      const report = await validator.validateString(html);
      const problems = report.results
        .flatMap((r) => r.messages)
        .filter((m) => !mantineOwn(m.message, lines[m.line - 1]!.slice(Math.max(0, m.column - 300), m.column)))
        .map((m) => `${m.ruleId}: ${m.message} (${m.line}:${m.column})`);
      expect(problems, path).toEqual([]);
    }
  });
});
