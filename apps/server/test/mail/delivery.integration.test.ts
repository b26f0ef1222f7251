import { schema } from "@elo/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueTemplate, passwordResetEmail } from "../../src/mail/templates";
import { createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";
import { startSmtpServer } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let h: Harness;
beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await createHarness({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const rowsTo = (to: string) => h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.to, to));

describe("e-mail delivery with SMTP configured", () => {
  it("sends the recovery e-mail on its own once the request's transaction commits (no flush)", async () => {
    const user = await createUser(h);
    // Counted before the call: the e-mail may well arrive before the call's answer does.
    const before = smtp.received.length;
    await (await h.caller(null)).auth.requestPasswordReset({ email: user.email });
    // The test's mailer runs no periodic flush (the harness never starts it): only the commit sends it.
    await smtp.waitFor(before + 1, 10_000);
    expect(smtp.received.at(-1)!.to).toEqual([user.email]);
    await expect.poll(async () => (await rowsTo(user.email))[0]?.status, { timeout: 10_000 }).toBe("sent");
  });

  it("sends a message enqueued in a longer transaction once that transaction commits", async () => {
    const before = smtp.received.length;
    await h.db.transaction(async (tx) => {
      await enqueueTemplate(h.deps, tx, passwordResetEmail, "depois@teste.com.br", { userId: null }, { name: null, resetUrl: `${h.config.publicOrigin}/reset-password?token=y` });
      // More work after the enqueue: the row stays invisible to other connections meanwhile.
      await new Promise((r) => setTimeout(r, 300));
    });
    await smtp.waitFor(before + 1, 10_000);
    expect(smtp.received.at(-1)!.to).toEqual(["depois@teste.com.br"]);
  });

  it("holds no lock on the outbox while talking to the SMTP server", async () => {
    // Long enough for the checks below to run while the server still holds the message, on a busy machine too.
    smtp.setDelay(5000);
    const user = await createUser(h);
    const before = smtp.received.length;
    await (await h.caller(null)).auth.requestPasswordReset({ email: user.email });
    // Wait until the message is claimed (attempt counted) but not yet accepted by the slow server.
    await expect.poll(async () => (await rowsTo(user.email))[0]?.attempts, { timeout: 4000, interval: 20 }).toBe(1);
    expect(smtp.received.length).toBe(before);
    const [row] = await rowsTo(user.email);
    const t0 = Date.now();
    // On PostgreSQL a held row lock makes NOWAIT fail at once; on PGlite a held transaction blocks every query.
    await h.db.transaction(async (tx) => {
      await tx.execute(sql`select id from email_outbox where id = ${row!.id} for update nowait`);
    });
    expect(Date.now() - t0).toBeLessThan(2500);
    await smtp.waitFor(before + 1, 10_000);
    smtp.setDelay(0);
  });

  it("sends nothing for a message whose transaction rolled back", async () => {
    const before = smtp.received.length;
    await expect(
      h.db.transaction(async (tx) => {
        await enqueueTemplate(h.deps, tx, passwordResetEmail, "desfeito@teste.com.br", { userId: null }, { name: null, resetUrl: `${h.config.publicOrigin}/reset-password?token=x` });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    await new Promise((r) => setTimeout(r, 2500));
    expect(smtp.received.length).toBe(before);
    expect(await rowsTo("desfeito@teste.com.br")).toEqual([]);
  });
});
