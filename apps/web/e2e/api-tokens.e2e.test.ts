import { schema } from "@elo/db";
import { apiTokenMessages as m } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, DEMO, DESKTOP, hasHorizontalScroll, launchBrowser, loginAs, newPage, PHONE, snap } from "./support/browser";
import { e2eDatabase } from "./support/db";

let browser: Browser;
let schoolStaffId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const handle = await e2eDatabase();
  try {
    const [staff] = await handle.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.school.email));
    schoolStaffId = staff!.id;
  } finally {
    await handle.close();
  }
});
afterAll(() => browser.close());

const whoAmI = (token: string) => fetch(`${baseUrl()}/trpc/auth.me`, { headers: { authorization: `Bearer ${token}` } });

describe("API tokens on /meus-dados", () => {
  it("creates a token shown once, which works from a script until it is revoked", async () => {
    const { page, context } = await newPage(browser, DESKTOP);
    await loginAs(context, schoolStaffId);
    await page.goto("/meus-dados");
    await page.getByRole("heading", { name: m.cardTitle }).waitFor();
    const name = `Sistema da secretaria ${Date.now()}`;
    await page.getByLabel(m.nameLabel).fill(name);
    await page.getByRole("button", { name: m.create }).click();
    await page.getByText(m.createdDescription).waitFor();
    const secret = (await page.getByTestId("api-token-secret").textContent())!.trim();
    expect(secret).toMatch(/^elo_[a-z2-7]{40}$/);
    await snap(page, "api-tokens-created-desktop");

    const me = await whoAmI(secret);
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain(DEMO.school.email);

    await page.getByRole("button", { name: m.done }).click();
    const row = page.getByRole("row").filter({ hasText: name });
    await row.getByText(m.statusActive).waitFor();
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await row.getByRole("button", { name: m.revoke }).click();
    await page.getByText(m.revokeConfirmText(name)).waitFor();
    await page.getByRole("dialog").getByRole("button", { name: m.revoke }).click();
    await row.getByText(m.statusRevoked).waitFor();
    expect((await whoAmI(secret)).status).toBe(401);
    await snap(page, "api-tokens-revoked-desktop");
    await context.close();
  });

  it("asks for a name, and fits a phone screen", async () => {
    const { page, context } = await newPage(browser, PHONE);
    await loginAs(context, schoolStaffId);
    await page.goto("/meus-dados");
    await page.getByRole("heading", { name: m.cardTitle }).waitFor();
    await page.getByRole("button", { name: m.create }).click();
    await page.getByText(m.nameRequired).waitFor();
    await page.getByRole("heading", { name: m.cardTitle }).scrollIntoViewIfNeeded();
    await snap(page, "api-tokens-phone");
    expect(await hasHorizontalScroll(page)).toBe(false);
    await context.close();
  });
});
