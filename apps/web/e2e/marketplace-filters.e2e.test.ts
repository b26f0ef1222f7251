import type { DatabaseHandle } from "@elo/db";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./support/axe";
import { DESKTOP, hasHorizontalScroll, loginAs, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { activate, expectDialogTrapsFocus, tabTo, typeInto } from "./support/keyboard";
import { seedBenefit, seedCompleteParent, seedPlan, seedSchool } from "./support/seed";

/**
 * Issue 31: a parent finds a benefit with the filters, the search and the sort of /home, claims it
 * from the filtered list and comes back to the same filters; at 375 px the filters live in a
 * drawer, at 1280 px in a side column. The parents' main school is in a neighborhood of its own
 * (Vila Filtros, São Paulo) with one Idiomas school, so they see its benefit plus the demo world's
 * city and network ones, and the claims leave the demo parent's marketplace as other files count it.
 */
let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

const run = Date.now();
let mainSchool: { id: string; name: string };
const parent = async (name: string) => {
  if (!mainSchool) {
    mainSchool = await seedSchool(db.db, `Escola Base Filtros ${run}`, "Ed. Básica", "Vila Filtros");
    const idiomas = await seedSchool(db.db, `Idiomas Vila Filtros ${run}`, "Idiomas", "Vila Filtros");
    await seedPlan(db.db, idiomas.id);
    // R$ 400 at 25%: R$ 300 after the discount; neighborhood scope.
    await seedBenefit(db.db, idiomas, "Inglês Filtros");
  }
  return seedCompleteParent(db.db, `${name} ${run}`, mainSchool);
};

const PHONE_375 = { width: 375, height: 740 };
const cards = (page: Page) => page.getByTestId("benefit-card");
const card = (page: Page, className: string) => cards(page).filter({ hasText: className });
const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** The option of a native select whose label starts with `name` ("Idiomas (3)"). */
async function optionLabel(page: Page, select: string, name: string) {
  const labels = await page.getByLabel(select, { exact: true }).locator("option").allTextContents();
  const found = labels.find((l) => l.startsWith(name));
  expect(found, `${select}: ${labels.join(", ")}`).toBeDefined();
  return found!;
}

describe("marketplace filters, search and sort (issue 31)", () => {
  for (const [label, viewport] of [
    ["1280 px", DESKTOP],
    ["375 px", PHONE_375],
  ] as const) {
    it(`filters to Idiomas in the neighborhood up to a fee, searches "ingles", sorts by discount, claims and comes back (${label})`, async () => {
      const parentId = await parent(`Responsável Filtros ${label}`);
      const { page, context } = await newPage(browser, viewport);
      await loginAs(context, parentId);
      await page.goto("/home");
      await card(page, "Inglês Filtros").waitFor();
      // The demo world's city and network benefits, and the neighborhood's own (other files may add more).
      await expect.poll(() => page.getByTestId("results-count").textContent(), { timeout: 10_000 }).toMatch(/^\d+ benefícios encontrados$/);
      const phone = viewport.width < 576;

      // The filters: in a drawer opened by a button with the results count on a phone.
      const openFilters = async () => {
        if (!phone) return;
        await page.getByTestId("open-filters").click();
        await page.getByRole("dialog", { name: "Filtros" }).waitFor();
      };
      const closeFilters = async (expected: number) => {
        if (!phone) return;
        await page.getByRole("button", { name: expected === 1 ? "Ver 1 resultado" : `Ver ${expected} resultados` }).click();
        await page.getByRole("dialog", { name: "Filtros" }).waitFor({ state: "hidden" });
      };
      if (phone) {
        await expect(page.getByTestId("open-filters").textContent()).resolves.toMatch(/^Filtros \(\d+ resultados\)$/);
        await expect(page.getByTestId("filters-column").isVisible()).resolves.toBe(false);
      } else {
        await expect(page.getByTestId("open-filters").isVisible()).resolves.toBe(false);
      }
      await openFilters();
      const scope = phone ? page.getByRole("dialog", { name: "Filtros" }) : page.getByTestId("filters-column");
      const idiomas = await optionLabel(page, "Nicho", "Idiomas");
      expect(idiomas).toMatch(/^Idiomas \(\d+\)$/);
      await scope.getByLabel("Nicho", { exact: true }).selectOption({ label: idiomas });
      await page.waitForURL((u) => u.searchParams.has("category"));
      await expect.poll(() => optionLabel(page, "Onde", "Meu bairro"), { timeout: 10_000 }).toBe("Meu bairro (1)");
      await scope.getByLabel("Onde", { exact: true }).selectOption({ label: "Meu bairro (1)" });
      await page.waitForURL((u) => u.searchParams.get("where") === "neighborhood");
      // The fee and discount options say how many each would leave (decision 172).
      const feeStep = scope.getByTestId("filter-fee-steps").getByRole("button", { name: "até R$ 300,00 (1)" });
      await expect.poll(() => feeStep.count(), { timeout: 10_000 }).toBe(1);
      await expect(scope.getByTestId("filter-fee-steps").getByRole("button", { name: "até R$ 200,00 (0)" }).count()).resolves.toBe(1);
      await expect(scope.getByTestId("filter-discount-steps").getByRole("button", { name: "pelo menos 20% (1)" }).count()).resolves.toBe(1);
      await scope.getByLabel("Mensalidade com desconto até (R$)").fill("300");
      await scope.getByRole("button", { name: "Aplicar" }).click();
      await page.waitForURL((u) => u.searchParams.get("maxFee") === "300");
      if (phone) await snap(page, "marketplace-filters-drawer-375", { fullPage: false });
      await closeFilters(1);

      await page.getByLabel("Buscar por escola ou turma").fill("ingles");
      await page.getByLabel("Buscar por escola ou turma").press("Enter");
      await page.waitForURL((u) => u.searchParams.get("q") === "ingles");
      await page.getByLabel("Ordenar por").selectOption({ label: "Maior desconto" });
      await page.waitForURL((u) => u.searchParams.get("sort") === "discount");
      await expect.poll(() => cards(page).locator("h3").allTextContents(), { timeout: 10_000 }).toEqual(["Inglês Filtros"]);
      await expect(page.getByTestId("results-count").textContent()).resolves.toBe("1 benefício encontrado");
      const filters = params(page);
      expect(filters).toMatchObject({ where: "neighborhood", maxFee: "300", q: "ingles", sort: "discount" });
      expect(await hasHorizontalScroll(page)).toBe(false);
      await snap(page, `marketplace-filtered-${viewport.width}`);
      const violations = await axeViolations(page);
      expect(describeViolations(`/home filtered ${label}`, violations)).toEqual([]);

      // Claim from the filtered list, then back: the same filters, and the card claimed.
      await card(page, "Inglês Filtros").getByRole("button", { name: "Aproveitar benefício" }).click();
      await page.waitForURL((u) => u.pathname === "/confirmacao-desconto");
      await page.getByText("Parabéns, o seu desconto está reservado!").waitFor();
      await page.goBack();
      await page.waitForURL((u) => u.pathname === "/home");
      expect(params(page)).toEqual(filters);
      await card(page, "Inglês Filtros").getByRole("button", { name: "Desconto já aproveitado" }).waitFor();
      await expect(page.getByLabel("Buscar por escola ou turma").inputValue()).resolves.toBe("ingles");
      await expect(page.getByLabel("Ordenar por").inputValue()).resolves.toBe("discount");
      await openFilters();
      await expect(scope.getByLabel("Onde", { exact: true }).inputValue()).resolves.toBe("neighborhood");
      await expect(scope.getByLabel("Mensalidade com desconto até (R$)").inputValue()).resolves.toBe("300");
      await context.close();
    });
  }

  for (const [label, viewport] of [
    ["1280 px", DESKTOP],
    ["375 px", PHONE_375],
  ] as const) {
    it(`keeps the page in the address: 'Carregar mais', reload, back and forward land on the same page; a claim from page 2 comes back to it (${label})`, async () => {
      // A neighborhood of its own with 30 benefits: more than a page of 24.
      const hood = `Vila Paginas ${label} ${run}`;
      const base = await seedSchool(db.db, `Escola Base Páginas ${label} ${run}`, "Ed. Básica", hood);
      const idiomas = await seedSchool(db.db, `Idiomas Páginas ${label} ${run}`, "Idiomas", hood);
      await seedPlan(db.db, idiomas.id);
      for (let i = 1; i <= 30; i++) await seedBenefit(db.db, idiomas, `Curso Página ${String(i).padStart(2, "0")}`);
      const parentId = await seedCompleteParent(db.db, `Responsável Páginas ${label} ${run}`, base);
      const { page, context } = await newPage(browser, viewport);
      await loginAs(context, parentId);
      const shown = () => cards(page).count();
      await page.goto("/home?where=neighborhood&sort=newest");
      await expect.poll(shown, { timeout: 10_000 }).toBe(24);
      await page.getByTestId("load-more").click();
      await page.waitForURL((u) => u.searchParams.get("page") === "2");
      await expect.poll(shown, { timeout: 10_000 }).toBe(30);
      expect(params(page)).toEqual({ where: "neighborhood", sort: "newest", page: "2" });
      await expect(page.getByTestId("load-more").count()).resolves.toBe(0);
      await snap(page, `marketplace-page-2-${viewport.width}`);

      // Reload, back and forward: as many pages as the address says.
      await page.reload();
      await expect.poll(shown, { timeout: 10_000 }).toBe(30);
      await page.goBack();
      await page.waitForURL((u) => !u.searchParams.has("page"));
      await expect.poll(shown, { timeout: 10_000 }).toBe(24);
      await page.getByTestId("load-more").waitFor();
      await page.goForward();
      await page.waitForURL((u) => u.searchParams.get("page") === "2");
      await expect.poll(shown, { timeout: 10_000 }).toBe(30);

      // A claim from the second page, then back: the same filters, the same page, the card claimed.
      await card(page, "Curso Página 01").getByRole("button", { name: "Aproveitar benefício" }).click();
      await page.waitForURL((u) => u.pathname === "/confirmacao-desconto");
      await page.goBack();
      await page.waitForURL((u) => u.pathname === "/home");
      expect(params(page)).toEqual({ where: "neighborhood", sort: "newest", page: "2" });
      await card(page, "Curso Página 01").getByRole("button", { name: "Desconto já aproveitado" }).waitFor();
      await expect.poll(shown, { timeout: 10_000 }).toBe(30);

      // A new filter or order starts from the first page.
      await page.getByLabel("Ordenar por").selectOption({ label: "Maior desconto" });
      await page.waitForURL((u) => u.searchParams.get("sort") === "discount");
      expect(params(page).page).toBeUndefined();
      await expect.poll(shown, { timeout: 10_000 }).toBe(24);

      // An invalid page is dropped with no error page: the first page.
      for (const bad of ["abc", "0", "-1", "1.5", "99999"]) {
        await page.goto(`/home?where=neighborhood&page=${bad}`);
        await expect.poll(shown, { timeout: 10_000 }).toBe(24);
        await expect(page.getByText("Erro ao carregar dados").count()).resolves.toBe(0);
      }
      await context.close();
    });
  }

  it("drops an invalid parameter and keeps the rest, with no error page; an empty result says what to remove", async () => {
    const parentId = await parent("Responsável Endereço");
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, parentId);
    await page.goto("/home?q=ingles&maxFee=abc&sort=random&where=mars&minDiscount=500");
    // "ingles" finds the class and Teens Conversation (its modality is Inglês); Gold first.
    await card(page, "Inglês Filtros").waitFor();
    const names = await cards(page).locator("h3").allTextContents();
    expect(names).toContain("Teens Conversation");
    expect(names).not.toContain("Natação Infantil");
    await expect(page.getByText("Erro ao carregar dados").count()).resolves.toBe(0);
    await expect(page.getByLabel("Ordenar por").inputValue()).resolves.toBe("default");

    // "fluent" up to R$ 200: nothing; removing the fee shows Fluent English School's network benefit.
    await page.goto("/home?q=fluent&maxFee=200");
    const empty = page.getByTestId("empty-filtered");
    await empty.getByText("Nenhum benefício com esses filtros.").waitFor();
    await empty.getByText("Remova 'até R$ 200,00' para ver 1.").waitFor();
    await snap(page, "marketplace-filters-empty-1280");
    await empty.getByRole("button", { name: "Remover 'até R$ 200,00'" }).click();
    await page.waitForURL((u) => !u.searchParams.has("maxFee") && u.searchParams.get("q") === "fluent");
    await expect.poll(() => cards(page).count(), { timeout: 10_000 }).toBe(1);
    // Back and forward through the filters.
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get("maxFee") === "200");
    await empty.waitFor();
    await page.goForward();
    await page.waitForURL((u) => !u.searchParams.has("maxFee"));
    await expect.poll(() => cards(page).count(), { timeout: 10_000 }).toBe(1);
    await context.close();
  });

  it("is used by keyboard alone: search, filters, sort, and the phone's drawer holds focus", async () => {
    const parentId = await parent("Responsável Teclado");
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, parentId);
    await page.goto("/home");
    await card(page, "Inglês Filtros").waitFor();
    await typeInto(page, page.getByLabel("Buscar por escola ou turma"), "natacao");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("q") === "natacao");
    // The previous cards stay until the new ones come (keepPreviousData): wait for the swap.
    const swapped = async () => {
      const names = await cards(page).locator("h3").allTextContents();
      return names.includes("Natação Infantil") && !names.includes("Inglês Filtros");
    };
    await expect.poll(swapped, { timeout: 10_000 }).toBe(true);
    // Clear the search with the keyboard (focus stays in the box), then the niche select with the arrow keys.
    await expect(page.getByLabel("Buscar por escola ou turma").evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => !u.searchParams.has("q"));
    await tabTo(page, page.getByTestId("filters-column").getByLabel("Nicho", { exact: true }));
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.waitForURL((u) => u.searchParams.has("category"));
    await activate(page, page.getByTestId("filters-column").getByLabel(/^Somente com vagas/), "Space");
    await page.waitForURL((u) => u.searchParams.get("withSlots") === "true");
    await tabTo(page, page.getByLabel("Ordenar por"));
    await page.keyboard.press("ArrowDown");
    await page.waitForURL((u) => u.searchParams.has("sort"));
    await context.close();

    const phone = await newPage(browser, PHONE_375);
    await loginAs(phone.context, parentId);
    await phone.page.goto("/home");
    await card(phone.page, "Inglês Filtros").waitFor();
    const button = phone.page.getByTestId("open-filters");
    await activate(phone.page, button);
    await expectDialogTrapsFocus(phone.page, phone.page.getByRole("dialog", { name: "Filtros" }), button);
    await phone.context.close();
  });
});
