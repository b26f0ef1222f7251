import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { e2eServer } from "./file-server";

const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export const screenshotsDir = fileURLToPath(new URL("../screenshots/", import.meta.url));

/** This file's own server (decision 229). */
export const baseUrl = () => e2eServer().baseUrl;

/** Debian's Chromium driven by playwright-core; `extraArgs` for one scenario's needs (a fake camera). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 800 };

/** A fresh context (own cookies) and page, at the base URL. */
export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, locale: "pt-BR", acceptDownloads: true });
  const page = await context.newPage();
  // A landing page arrives rendered (decision 163) and answers clicks once React has hydrated it,
  // as a person sees it about a second later: every navigation waits for that moment.
  const goto = page.goto.bind(page);
  page.goto = async (...args: Parameters<Page["goto"]>) => {
    const response = await goto(...args);
    // Its lazy parts (the FAQ's accordion) hydrate once their code has arrived: the network goes quiet.
    if (await page.locator("#root[data-prerendered]").count()) {
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.waitForLoadState("networkidle");
    }
    return response;
  };
  return { context, page };
}

/** Saves a screenshot under e2e/screenshots for a person to look at (the whole page, or what the viewport shows). */
export async function snap(page: Page, name: string, { fullPage = true } = {}) {
  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`), fullPage });
}

/** Screenshots of the current page at 375 and 1280 px, checking nothing spills sideways on the phone. */
export async function snapBoth(page: Page, name: string) {
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await hasHorizontalScroll(page), name).toBe(false);
  await snap(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
  await snap(page, `${name}-1280`);
}

/** True when the page is wider than the viewport (a phone user would have to scroll sideways). */
export function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate<boolean>("document.documentElement.scrollWidth > document.documentElement.clientWidth");
}

/** Logs in through the real form. */
export async function login(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

export const DEMO = {
  admin: { email: "admin@eloescolar.com.br", password: "EloDemo#2025" },
  school: { email: "escola@eloescolar.com.br", password: "EloDemo#2025" },
  parent: { email: "pais@eloescolar.com.br", password: "EloDemo#2025" },
};

/**
 * Signs a browser context in as a user without the login form: creates a session row in the
 * e2e database and sets its cookie. For scenarios whose subject is not the login itself.
 */
export async function loginAs(context: BrowserContext, userId: string) {
  const { e2eDatabase } = await import("./db");
  const { createSession } = await import("../../../server/src/auth/session");
  const handle = await e2eDatabase();
  try {
    const { token, session } = await createSession(handle.db, { now: () => new Date() }, userId, "e2e");
    const url = new URL(baseUrl());
    await context.addCookies([{ name: "elo_session", value: token, domain: url.hostname, path: "/", httpOnly: true, sameSite: "Lax", expires: Math.floor(session.expiresAt.getTime() / 1000) }]);
  } finally {
    await handle.close();
  }
}
