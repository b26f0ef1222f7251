import type { Locator, Page } from "playwright-core";

/** Picks an option of a Mantine searchable Select. */
export async function pick(page: Page, label: string, search: string, option: string) {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  await input.fill(search);
  await page.getByRole("option", { name: option, exact: true }).click();
}

/**
 * Opens a non-searchable Select and clicks an option. On a busy machine a click that lands while the
 * page is still re-rendering (a lazy part arriving after the first paint) can leave the list closed:
 * the list is opened again until the option shows.
 */
export async function choose(page: Page, select: Locator, option: string) {
  const item = page.getByRole("option", { name: option, exact: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    await select.click();
    if (await item.waitFor({ timeout: 3_000 }).then(() => true, () => false)) return item.click();
  }
  throw new Error(`The option "${option}" never showed`);
}

/** Fills /signup (location, name, e-mail, a strong password) and accepts the required consents. */
export async function fillSignupForm(page: Page, email: string, fullName = "Joana Pereira") {
  await pick(page, "Estado (UF)", "SP", "SP - São Paulo");
  await pick(page, "Cidade", "São Paulo", "São Paulo");
  await pick(page, "Bairro", "Pinheiros", "Pinheiros");
  await page.getByLabel("Nome completo").fill(fullName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill("Girassol-Azul-42");
  await page.getByLabel("Li e aceito os Termos de Uso e a Política de Privacidade").check();
  await page.getByLabel(/Autorizo o processamento dos meus dados/).check();
}
