import type { Page } from "playwright-core";

/**
 * /admin-pais shows the parents' table only after the administrator states why (decision 192):
 * 'Ver a lista com uma finalidade', a purpose from the list (and a ticket for support).
 */
export async function statePurposeForParents(page: Page, purpose = "revisão pelo administrador", ticket?: string) {
  await page.getByTestId("parents-purpose").getByRole("button", { name: "Ver a lista com uma finalidade" }).click();
  const dialog = page.getByRole("dialog", { name: "Por que você vai ver a lista de responsáveis?" });
  await dialog.getByLabel("Finalidade do acesso").click();
  await page.getByRole("option", { name: purpose }).click();
  if (ticket) await dialog.getByLabel("Número do chamado").fill(ticket);
  await dialog.getByRole("button", { name: "Ver a lista com esta finalidade" }).click();
  await dialog.waitFor({ state: "hidden" });
}
