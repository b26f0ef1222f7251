import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { operationsMessages as m } from "@elo/shared";
import type { Browser } from "playwright-core";
import postgres from "postgres";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, DESKTOP, launchBrowser, snap } from "./support/browser";

/**
 * 'Operação' with a real mail server that first refuses (550) and then accepts: the admin sees the
 * failed e-mail with its error, clicks 'Reenviar', and sees it sent. The shared e2e server has no
 * SMTP, so this file starts the built server of its own, with SMTP_URL, over a fresh database.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
let browser: Browser;
let child: ChildProcess;
let smtp: SMTPServer;
let refuse = true;
const received: string[] = [];
let baseUrl = "";
const dbName = `elo_e2e_ops_${Date.now()}`;
const adminUrl = process.env.E2E_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const dataDir = mkdtempSync(path.join(tmpdir(), "elo-e2e-ops-"));

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse) return callback(Object.assign(new Error("5.1.1 Mailbox unavailable"), { responseCode: 550 }));
      received.push(address.address);
      callback();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  await admin.unsafe(`create database ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: baseUrl, DATABASE_URL: u.toString(), DATA_DIR: dataDir, DEMO: "1", RATE_LIMIT: "0", LOG_LEVEL: "error", JOBS_INTERVAL_MS: "0", SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`${baseUrl}/readyz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error("server not ready");
    await new Promise((r) => setTimeout(r, 300));
  }
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("Operação: a refused e-mail sent again", () => {
  it("shows the failed e-mail with the server's refusal, sends it again once, and shows it sent", async () => {
    // A password-reset request: its e-mail goes out at once and the mail server refuses it.
    const asked = await fetch(`${baseUrl}/trpc/auth.requestPasswordReset`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify({ json: { email: DEMO.parent.email } }),
    });
    expect(asked.status).toBe(200);

    // The send is tried right after the answer; wait until the mail server's refusal is stored.
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    const appDb = postgres(u.toString(), { max: 1, onnotice: () => {} });
    try {
      const deadline = Date.now() + 45_000;
      for (;;) {
        const rows = await appDb`select last_error from email_outbox where kind = 'password-reset'`;
        if (rows.some((r) => String(r.last_error ?? "").includes("Mailbox unavailable"))) break;
        if (Date.now() > deadline) throw new Error(`the refusal was never stored: ${JSON.stringify(rows)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await appDb.end();
    }

    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, locale: "pt-BR" });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(DEMO.admin.email);
    await page.getByLabel("Senha", { exact: true }).fill(DEMO.admin.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.waitForURL(/admin-escolas/);
    await page.getByRole("link", { name: m.button }).click();
    await page.waitForURL(/admin-operacao/);
    await page.getByRole("heading", { name: m.title, level: 1 }).waitFor();

    const failed = page.getByTestId("ops-failed");
    await failed.getByText("Mailbox unavailable").waitFor({ timeout: 15_000 });
    expect(await failed.getByText("p***@eloescolar.com.br").isVisible()).toBe(true);
    expect(await page.getByTestId("ops-failing").textContent()).toContain("1");
    await snap(page, "operacao-email-recusado");

    refuse = false;
    const resend = failed.getByRole("button", { name: m.resendLabel("p***@eloescolar.com.br") });
    // A double click: one send.
    await resend.dblclick();
    await failed.getByText(m.noFailed).waitFor({ timeout: 20_000 });
    const sentBy = Date.now() + 30_000;
    while ((await page.getByTestId("ops-sent").locator("p").last().textContent())?.trim() !== "1") {
      if (Date.now() > sentBy) throw new Error("the e-mail never showed as sent");
      await page.waitForTimeout(1000);
      await page.reload();
    }
    expect(received).toEqual([DEMO.parent.email]);
    await snap(page, "operacao-email-reenviado");
    await context.close();
  }, 150_000);
});
