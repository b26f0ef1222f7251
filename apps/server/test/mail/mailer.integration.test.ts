import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backoffMs, createMailer, MAX_SEND_ATTEMPTS } from "../../src/mail/mailer";
import { enqueueTemplate, passwordResetEmail, renderTemplate, voucherEmail } from "../../src/mail/templates";
import { createHarness, type Harness } from "../support/harness";
import { startSmtpServer } from "../support/smtp";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const outboxRow = async (id: string) => (await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.id, id)))[0]!;

describe("mailer", () => {
  it("delivers a template through a real SMTP server and marks the outbox row sent", async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer({ db: h.db, smtpUrl: smtp.url, from: "Elo Escolar <nao-responda@eloescolar.com.br>", clock: h.clock, logger: h.deps.logger, env: h.config });
    try {
      const url = `${h.config.publicOrigin}/reset-password?token=tok123`;
      const id = await enqueueTemplate({ mailer, config: h.config }, h.db, passwordResetEmail, "ana@teste.com.br", { userId: null }, { name: "Ana", resetUrl: url });
      await mailer.flush();
      const [mail] = await smtp.waitFor(1);
      expect(mail!.to).toEqual(["ana@teste.com.br"]);
      expect(mail!.subject).toBe("Redefinição de senha — Elo Escolar");
      expect(mail!.text).toContain(url);
      expect(mail!.html).toContain(`href="${url}"`);
      const row = await outboxRow(id);
      expect(row.status).toBe("sent");
      expect(row.kind).toBe("password-reset");
    } finally {
      await mailer.stop();
      await smtp.close();
    }
  });

  it("keeps the message and retries with backoff while SMTP is unreachable", async () => {
    // Find a free port, then leave it closed so the first delivery fails.
    const probe = await startSmtpServer();
    const port = new URL(probe.url).port;
    await probe.close();
    const mailer = createMailer({ db: h.db, smtpUrl: `smtp://127.0.0.1:${port}`, from: "Elo <a@b.com.br>", clock: h.clock, logger: h.deps.logger, env: h.config });
    let smtp: Awaited<ReturnType<typeof startSmtpServer>> | null = null;
    try {
      const id = await enqueueTemplate({ mailer, config: h.config }, h.db, passwordResetEmail, "bia@teste.com.br", { userId: null }, { name: null, resetUrl: `${h.config.publicOrigin}/reset-password?token=x` });
      expect(await mailer.flush()).toBe(0);
      let row = await outboxRow(id);
      expect(row.status).toBe("pending");
      expect(row.attempts).toBe(1);
      expect(row.lastError).toBeTruthy();
      expect(row.nextAttemptAt.getTime()).toBe(h.clock.now().getTime() + backoffMs(1));

      // Not due yet: no new attempt even with the server back.
      smtp = await startSmtpServer(Number(port));
      expect(await mailer.flush()).toBe(0);
      expect((await outboxRow(id)).attempts).toBe(1);

      h.clock.advance(backoffMs(1));
      expect(await mailer.flush()).toBe(1);
      await smtp.waitFor(1);
      row = await outboxRow(id);
      expect(row.status).toBe("sent");
      expect(row.attempts).toBe(2);
      expect(smtp.received[0]!.to).toEqual(["bia@teste.com.br"]);
    } finally {
      await mailer.stop();
      await smtp?.close();
    }
  });

  it("renders a row queued with only its data (the claim statement's, left unrendered by a crash), and sets aside one it cannot render", async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer({ db: h.db, smtpUrl: smtp.url, from: "Elo <a@b.com.br>", clock: h.clock, logger: h.deps.logger, env: h.config });
    try {
      const data = voucherEmail.sample(h.config);
      const earlier = new Date(h.clock.now().getTime() - 60_000);
      const [broken] = await h.db.insert(schema.emailOutbox).values({ kind: "sem-modelo", to: "x@teste.com.br", userId: null, data: {}, createdAt: earlier, nextAttemptAt: earlier }).returning();
      const [row] = await h.db.insert(schema.emailOutbox).values({ kind: voucherEmail.kind, to: "cris@teste.com.br", userId: null, data, nextAttemptAt: h.clock.now() }).returning();
      expect(row!.subject).toBeNull();
      expect(await mailer.flush()).toBe(1);
      const [mail] = await smtp.waitFor(1);
      const expected = renderTemplate(voucherEmail, data, h.config);
      expect(mail!.to).toEqual(["cris@teste.com.br"]);
      expect(mail!.subject).toBe(expected.subject);
      expect(mail!.text).toContain(data.voucherCode);
      expect(await outboxRow(row!.id)).toMatchObject({ status: "sent", subject: expected.subject, html: expected.html, text: expected.text });
      expect(await outboxRow(broken!.id)).toMatchObject({ status: "failed", lastError: expect.stringContaining("sem-modelo") });
    } finally {
      await mailer.stop();
      await smtp.close();
    }
  });

  it("gives an e-mail up after the last attempt (failed, with the error), no longer pending forever", async () => {
    const probe = await startSmtpServer();
    const port = new URL(probe.url).port;
    await probe.close();
    const mailer = createMailer({ db: h.db, smtpUrl: `smtp://127.0.0.1:${port}`, from: "Elo <a@b.com.br>", clock: h.clock, logger: h.deps.logger, env: h.config });
    try {
      const id = await enqueueTemplate({ mailer, config: h.config }, h.db, passwordResetEmail, "caio@teste.com.br", { userId: null }, { name: null, resetUrl: `${h.config.publicOrigin}/reset-password?token=y` });
      let waited = 0;
      for (let attempt = 1; attempt <= MAX_SEND_ATTEMPTS; attempt++) {
        expect(await mailer.flush()).toBe(0);
        const row = await outboxRow(id);
        expect(row.attempts).toBe(attempt);
        expect(row.status, `after attempt ${attempt}`).toBe(attempt < MAX_SEND_ATTEMPTS ? "pending" : "failed");
        expect(row.lastError).toBeTruthy();
        h.clock.advance(backoffMs(attempt));
        waited += backoffMs(attempt);
      }
      // About three hours of refusals; then nothing is tried again until someone resends it.
      expect(waited).toBeGreaterThan(3 * 3600_000);
      h.clock.advance(24 * 3600_000);
      expect(await mailer.flush()).toBe(0);
      expect((await outboxRow(id)).attempts).toBe(MAX_SEND_ATTEMPTS);
    } finally {
      await mailer.stop();
    }
  });

  it("grows the backoff and caps it at one hour", () => {
    expect(backoffMs(1)).toBeLessThan(backoffMs(2));
    expect(backoffMs(20)).toBe(60 * 60 * 1000);
  });
});
