import { createServer, type IncomingHttpHeaders } from "node:http";
import { type DatabaseHandle } from "@elo/db";
import { verifyWebhook } from "@elo/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, loginAs, newPage, snapBoth } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { voucherWorld } from "./support/voucher-world";

let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

/** The school's own system: a local receiver recording each delivery. */
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    res.end(`{"recebido":true}`);
  });
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));


describe("Integrações (webhooks) on /dados-da-escola", () => {
  it("staff add an endpoint to a local receiver, press 'Testar', a voucher is reserved and used, and the log shows three deliveries", async () => {
    const className = `Inglês Webhook ${Date.now()}`;
    const w = await voucherWorld(db.db, { className });
    const desk = await newPage(browser, DESKTOP);
    desk.page.setDefaultTimeout(15_000);
    await loginAs(desk.context, w.staffId);
    const page = desk.page;
    await page.goto("/dados-da-escola");
    const section = page.getByRole("region", { name: "Integrações (webhooks)" });
    await section.getByText("Nenhum endpoint cadastrado.").waitFor();

    // Add: a bad URL is refused in Portuguese first.
    await section.getByRole("button", { name: "Adicionar endpoint" }).click();
    const form = page.getByRole("dialog", { name: "Adicionar endpoint" });
    await form.getByLabel("URL do endpoint").fill("sem-protocolo");
    await form.getByRole("button", { name: "Salvar" }).click();
    await form.getByText("URL inválida.").waitFor();
    await form.getByText("Escolha ao menos um evento.").waitFor();
    await form.getByLabel("URL do endpoint").fill(`http://localhost:${port}/elo`);
    await form.getByLabel("Descrição").fill("Sistema da secretaria");
    await form.getByLabel("Voucher reservado").check();
    // Keyboard: Space checks the focused box.
    await form.getByLabel("Voucher utilizado").focus();
    await page.keyboard.press("Space");
    await snapBoth(page, "webhooks-form");
    await form.getByRole("button", { name: "Salvar" }).click();

    // The secret, once, with a copy button.
    const secretDialog = page.getByRole("dialog", { name: "Segredo de assinatura" });
    await secretDialog.getByText("Guarde este segredo agora: ele não será mostrado de novo.").waitFor();
    const secret = (await secretDialog.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await secretDialog.getByRole("button", { name: "Copiar" }).waitFor();
    await snapBoth(page, "webhooks-secret");
    await page.keyboard.press("Escape");
    await secretDialog.waitFor({ state: "hidden" });

    const card = section.getByTestId("webhook-endpoint").filter({ hasText: `localhost:${port}/elo` });
    await card.getByText("Ativo", { exact: true }).waitFor();
    await card.getByRole("button", { name: "Testar" }).click();
    await page.getByText("Evento de teste enfileirado.").first().waitFor();
    await card.getByTestId("webhook-delivery").first().waitFor();

    // The parent reserves, the desk confirms (through the app's own API from the page's sessions).
    const parent = await newPage(browser, DESKTOP);
    parent.page.setDefaultTimeout(15_000);
    await loginAs(parent.context, w.parentId);
    await parent.page.goto("/home");
    await parent.page.getByTestId("benefit-card").filter({ hasText: className }).getByRole("button", { name: "Aproveitar benefício" }).click();
    await parent.page.waitForURL((u) => u.pathname === "/confirmacao-desconto");
    const code = (await parent.page.getByTestId("voucher-code").textContent())!.trim();
    const counter = await newPage(browser, DESKTOP);
    counter.page.setDefaultTimeout(15_000);
    await loginAs(counter.context, w.staffId);
    await counter.page.goto("/painel-escola");
    await counter.page.getByLabel("Código do voucher").fill(code);
    await counter.page.getByRole("button", { name: "Buscar" }).click();
    await counter.page.getByTestId("voucher-result").getByRole("button", { name: "Confirmar utilização" }).click();
    await counter.page.getByText("Utilização confirmada!").first().waitFor();

    // The log (it refreshes by itself): ping, reserved, used — each answered 200.
    const rows = card.getByTestId("webhook-delivery");
    await expect.poll(async () => (await rows.filter({ hasText: "200" }).count()), { timeout: 20_000 }).toBe(3);
    for (const type of ["ping", "voucher.reserved", "voucher.used"]) await rows.filter({ hasText: type }).first().waitFor();
    await card.getByText('{"recebido":true}').first().waitFor();
    await snapBoth(page, "webhooks-log");

    const events = received.map((r) => verifyWebhook(secret, r.headers as Record<string, string>, r.body));
    expect(events.map((e) => e.type).sort()).toEqual(["ping", "voucher.reserved", "voucher.used"]);
    expect(events.find((e) => e.type === "voucher.used")).toMatchObject({ data: { voucherCode: code, status: "utilizado", className } });

    // 'Reenviar' the voucher.used delivery: the receiver gets the same webhook-id again.
    await rows.filter({ hasText: "voucher.used" }).getByRole("button", { name: "Reenviar voucher.used" }).click();
    await page.getByText("Evento enfileirado para reenvio.").first().waitFor();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(4);
    expect(received[3]!.headers["webhook-id"]).toBe(events.find((e) => e.type === "voucher.used")!.id);
    for (const p of [desk, parent, counter]) await p.context.close();
  });
});
