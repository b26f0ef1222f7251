import type { Page } from "playwright-core";

/** Picks an option of a Mantine searchable Select. */
export async function pick(page: Page, label: string, search: string, option: string) {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  await input.fill(search);
  await page.getByRole("option", { name: option, exact: true }).click();
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
