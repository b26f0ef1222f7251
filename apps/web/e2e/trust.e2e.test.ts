import { schema, type DatabaseHandle } from "@elo/db";
import { and, desc, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { fillSignupForm } from "./support/forms";

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
