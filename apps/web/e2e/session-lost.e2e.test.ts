import { schema, type DatabaseHandle } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginAs, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { seedUser } from "./support/seed";

let browser: Browser;
let handle: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db: handle } = opened));

describe("a session revoked elsewhere", () => {
  it("the next request answering UNAUTHORIZED signs the page out and replaces it with /login", async () => {
    const userId = await seedUser(handle.db, { profileType: "parent", fullName: "Rita Revogada" });
    const { page, context } = await newPage(browser);
    await loginAs(context, userId);
    await page.goto("/home");
    const account = page.getByRole("button", { name: "Minha Conta" });
    await expect.poll(() => account.isEnabled(), { timeout: 15_000 }).toBe(true);
    const historyAtHome = await page.evaluate<number>("window.history.length");

    // Signed out elsewhere (another device, a password reset): the session row is gone.
    await handle.db.delete(schema.sessions).where(eq(schema.sessions.userId, userId));

    // The cached auth.me still says "signed in", so the app navigates and asks for the profile.
    await account.click();
    await page.getByRole("menuitem", { name: "Meus dados" }).click();
    await page.waitForURL((u) => u.pathname === "/login", { timeout: 15_000 });
    await page.getByText("Você precisa estar autenticado para acessar esta página", { exact: true }).first().waitFor();
    await page.getByRole("link", { name: "Efetuar Login" }).waitFor();
    expect(await account.count()).toBe(0);
    // /meus-dados was replaced by /login, not pushed after it.
    expect(await page.evaluate<number>("window.history.length")).toBe(historyAtHome + 1);
    await snap(page, "session-lost-login");
    await context.close();
  });
});
