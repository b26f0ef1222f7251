import { readFileSync } from "node:fs";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserEverywhere } from "../../server/test/support/factories/privacy";
import { e2eDatabase } from "./support/db";
import { DEMO, hasHorizontalScroll, launchBrowser, login, loginAs, newPage, PHONE, snap } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

async function seedParent() {
  const handle = await e2eDatabase();
  try {
    return await createUserEverywhere(handle);
  } finally {
    await handle.close();
  }
}

describe("/privacidade-lgpd", () => {
  it("a parent exports the data (the JSON parses) and deletes the account, then can no longer sign in", async () => {
    const parent = await seedParent();
    const { page, context } = await newPage(browser);
    await loginAs(context, parent.id);
    await page.goto("/privacidade-lgpd");
    await page.getByRole("heading", { name: "Privacidade e LGPD", level: 1 }).waitFor();
    const consents = page.getByRole("region", { name: "Seus consentimentos" });
    await consents.getByText("Comunicações de marketing").waitFor();
    expect(await consents.getByText("Aceito", { exact: true }).count()).toBe(4);
    expect(await page.getByRole("link", { name: "Termos de Uso e Política de Privacidade (PDF)" }).getAttribute("href")).toBe("/termos-de-uso-e-privacidade.pdf");
    await snap(page, "privacy-desktop");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Exportar dados" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^elo-escolar-dados-\d{4}-\d{2}-\d{2}-\d{6}\.json$/);
    const data = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(data.account.email).toBe(parent.email);
    expect(data.profile.fullName).toBe(parent.fullName);
    expect(data.profile.studentCpf).toBe(parent.cpf);
    expect(data.vouchers[0].voucherCode).toBe(parent.voucherCode);
    expect(data.files).toHaveLength(3);
    await page.getByText("Dados exportados com sucesso!").waitFor();

    await page.getByRole("button", { name: "Excluir minha conta" }).click();
    const dialog = page.getByRole("dialog", { name: "Excluir sua conta?" });
    await dialog.waitFor();
    const confirm = dialog.getByRole("button", { name: "Excluir definitivamente" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Entendo que a exclusão é definitiva").check();
    expect(await confirm.isDisabled()).toBe(true);
    // The current password is asked again: a wrong one is refused and the account stays.
    const password = dialog.getByLabel("Senha atual", { exact: true });
    await password.fill("nao-e-a-senha");
    await confirm.click();
    await page.getByText("Senha atual incorreta.", { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/privacidade-lgpd");
    await password.fill(parent.password);
    await snap(page, "privacy-delete-dialog");
    await confirm.click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByText("Conta deletada com sucesso").waitFor();
    await page.getByRole("banner").getByRole("link", { name: "Efetuar Login" }).waitFor();

    // The old session cookie no longer opens private pages.
    await page.goto("/privacidade-lgpd");
    await page.waitForURL((u) => u.pathname === "/login");
    const me = await page.request.get("/trpc/auth.me");
    expect(((await me.json()) as { result: { data: { json: unknown } } }).result.data.json).toBeNull();

    // Nothing is left to log in with: no user, no session.
    const handle = await e2eDatabase();
    try {
      expect(await handle.db.select().from(schema.users).where(eq(schema.users.email, parent.email))).toEqual([]);
      expect(await handle.db.select().from(schema.sessions).where(eq(schema.sessions.userId, parent.id))).toEqual([]);
      expect(await handle.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.voucherCode, parent.voucherCode))).toHaveLength(1);
    } finally {
      await handle.close();
    }

    // And the login form refuses the old credentials.
    await login(page, parent.email, parent.password);
    await page.getByText("Email ou senha incorretos").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });

  it("keeps the deletion behind a cancellable confirmation, and fits a 360 px screen", async () => {
    const parent = await seedParent();
    const { page, context } = await newPage(browser, PHONE);
    await loginAs(context, parent.id);
    await page.goto("/privacidade-lgpd");
    await page.getByRole("heading", { name: "Seus direitos" }).waitFor();
    await page.getByText("Comunicações de marketing").waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await snap(page, "privacy-phone");
    const dialog = page.getByRole("dialog", { name: "Excluir sua conta?" });
    const checkbox = dialog.getByLabel("Entendo que a exclusão é definitiva");
    const password = dialog.getByLabel("Senha atual", { exact: true });
    const confirm = dialog.getByRole("button", { name: "Excluir definitivamente" });
    // Escape and the 'Cancelar' button (text, not the header's icon) both forget the confirmation and the password.
    for (const leave of [() => page.keyboard.press("Escape"), () => dialog.locator("button", { hasText: "Cancelar" }).click()]) {
      await page.getByRole("button", { name: "Excluir minha conta" }).click();
      await dialog.waitFor();
      await checkbox.check();
      await password.fill(parent.password);
      expect(await confirm.isDisabled()).toBe(false);
      await leave();
      await dialog.waitFor({ state: "hidden" });
      await page.getByRole("button", { name: "Excluir minha conta" }).click();
      await dialog.waitFor();
      expect(await checkbox.isChecked()).toBe(false);
      expect(await password.inputValue()).toBe("");
      expect(await confirm.isDisabled()).toBe(true);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }
    await page.reload();
    await page.getByRole("heading", { name: "Seus direitos" }).waitFor();
    await context.close();
  });

  it("is reachable by school staff and admins: footer link when signed in, and the institution's /meus-dados", async () => {
    const handle = await e2eDatabase();
    let ids: Record<"admin" | "school", string>;
    try {
      const find = async (email: string) => (await handle.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)))[0]!.id;
      ids = { admin: await find(DEMO.admin.email), school: await find(DEMO.school.email) };
    } finally {
      await handle.close();
    }

    const visitor = await newPage(browser);
    await visitor.page.goto("/para-escolas");
    await visitor.page.getByRole("contentinfo").getByText("© 2025", { exact: false }).waitFor();
    expect(await visitor.page.getByRole("contentinfo").getByRole("link", { name: "Privacidade e LGPD" }).count()).toBe(0);
    await visitor.context.close();

    for (const who of ["admin", "school"] as const) {
      const { page, context } = await newPage(browser);
      await loginAs(context, ids[who]);
      await page.goto(who === "admin" ? "/admin-escolas" : "/meus-dados");
      if (who === "school") {
        await page.getByRole("main").getByRole("link", { name: "Privacidade e LGPD" }).click();
        await page.waitForURL((u) => u.pathname === "/privacidade-lgpd");
        await page.goBack();
      }
      await page.getByRole("contentinfo").getByRole("link", { name: "Privacidade e LGPD" }).click();
      await page.waitForURL((u) => u.pathname === "/privacidade-lgpd");
      await page.getByRole("heading", { name: "Privacidade e LGPD", level: 1 }).waitFor();
      await context.close();
    }
  });
});
