import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newPage, PHONE, snap } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe("web shell", () => {
  it("renders the landing page with the header", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/");
    // The page renders after its route chunk arrives: wait for the header rather than race it.
    await page.getByRole("link", { name: "Efetuar Login" }).first().waitFor();
    await expect(page.getByRole("link", { name: "Efetuar Login" }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "Para Escolas" }).first().isVisible()).resolves.toBe(true);
    await snap(page, "landing-desktop");
    await context.close();
  });

  it("shows the 404 page for an unknown path, with a link home", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/caminho-que-nao-existe");
    await page.getByText("Oops! Page not found").waitFor();
    await page.getByRole("link", { name: "Voltar para a página inicial" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await context.close();
  });

  it("opens the mobile drawer at phone width", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await page.goto("/");
    // The network's promotional banner opens about a second after the page (the demo world has a
    // Gold school); a person closes it before reaching the menu.
    const banner = page.getByRole("dialog", { name: "Destaque da rede" });
    await banner.waitFor();
    await banner.getByRole("button", { name: "Fechar" }).click();
    await banner.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Abrir menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await drawer.waitFor();
    await expect(drawer.getByRole("link", { name: "Para Escolas" }).isVisible()).resolves.toBe(true);
    await page.waitForTimeout(400);
    await snap(page, "drawer-phone");
    await context.close();
  });

  it("sends a visitor opening a private page to /login", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/meus-dados");
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByText("Você precisa estar autenticado para acessar esta página").waitFor();
    await context.close();
  });
});
