import { connect } from "node:net";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withSpawnedServer, type ChildServer } from "../support/child-server";
import { sessionCookie } from "../support/factories/sessions";
import { createAdmin } from "../support/factories/users";
import { TEST_ORIGIN, type Harness } from "../support/harness";
import { startSmtpServer } from "../support/smtp";
import { onRealPostgres } from "../support/test-db";

/**
 * 'Reenviar' attacked from outside (decision 189): real bytes to listening servers. Whatever the
 * address looks like, however many clicks arrive at once, and if the server is killed with -9 in
 * the middle of a burst, a failed e-mail ends delivered exactly once: never lost, never twice.
 */
const PROCEDURE = "admin.operations.resendEmail";

/** POST with the raw request line as given (fetch would normalise `#`, case is kept either way). */
function rawPost(base: string, target: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = "";
    socket.on("data", (d) => (data += d));
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf("\r\n\r\n") + 4) });
    });
    const head = Object.entries({ ...headers, host: `${hostname}:${port}`, "content-length": String(Buffer.byteLength(body)), connection: "close" })
      .map(([k, v]) => `${k}: ${v}`)
      .join("\r\n");
    socket.write(`POST ${target} HTTP/1.1\r\n${head}\r\n\r\n${body}`);
  });
}

describe.skipIf(!onRealPostgres())("'Reenviar' from outside (PostgreSQL, listening servers)", () => {
  let h: Harness;
  let child: ChildServer;
  withSpawnedServer((w) => ({ h, server: child } = w));

  async function failedEmail(to: string) {
    const [row] = await h.db
      .insert(schema.emailOutbox)
      .values({ kind: "voucher", to, subject: "Seu voucher", html: "<p>voucher</p>", text: "voucher", status: "failed", attempts: 10, lastError: "550 5.1.1 mailbox unavailable" })
      .returning({ id: schema.emailOutbox.id });
    return row!.id;
  }
  const rowOf = async (id: string) => (await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.id, id)))[0]!;
  const headersFor = async () => ({ "content-type": "application/json", origin: TEST_ORIGIN, cookie: await sessionCookie(h, (await createAdmin(h)).id) });
  const queuedIn = (body: string) => (body.match(/"queued":true/g) ?? []).length;

  it("URL variants and a parallel burst on a server with SMTP: one resend, one e-mail", async () => {
    const smtp = await startSmtpServer();
    const server = await h.startServer({ SMTP_URL: smtp.url });
    try {
      const headers = await headersFor();
      const id = await failedEmail("variantes@teste.com.br");
      const body = JSON.stringify({ json: { id } });
      const batchBody = JSON.stringify({ 0: { json: { id } }, 1: { json: { id } } });
      const variants: [string, string][] = [
        [`/trpc/${PROCEDURE}/`, body],
        [`/trpc/${PROCEDURE.toUpperCase()}`, body],
        [`/trpc/admin.operations.resendemail`, body],
        [`/TRPC/${PROCEDURE}`, body],
        [`/trpc/admin%2Eoperations%2EresendEmail`, body],
        [`/trpc/${encodeURIComponent(PROCEDURE)}%00`, body],
        [`/trpc/${PROCEDURE}?x=1&x=2`, body],
        [`/trpc/${PROCEDURE}#fragmento`, body],
        [`/trpc/${PROCEDURE}?batch=1`, batchBody],
        [`/trpc/${PROCEDURE},${PROCEDURE}?batch=1`, batchBody],
        [`/trpc/${PROCEDURE}`, body],
      ];
      const answers = [];
      for (const [target, payload] of variants) answers.push({ target, ...(await rawPost(server.url, target, headers, payload)) });
      // Never a server error; queued once at most across every spelling (the plain one at the latest).
      for (const a of answers) expect(a.status, `${a.target}: ${a.body}`).toBeLessThan(500);
      expect(answers.reduce((n, a) => n + queuedIn(a.body), 0), JSON.stringify(answers)).toBe(1);

      // Given up again, then 25 clicks at once.
      await smtp.waitFor(1);
      // The sender marks the row sent after the SMTP server has it: only then is it given up again,
      // or the sender's late 'sent' would overwrite the 'failed' below.
      for (let i = 0; i < 100 && (await rowOf(id)).status !== "sent"; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await rowOf(id)).status).toBe("sent");
      await h.db.update(schema.emailOutbox).set({ status: "failed", lastError: "421 try later" }).where(eq(schema.emailOutbox.id, id));
      const burst = await Promise.all(Array.from({ length: 25 }, () => fetch(`${server.url}/trpc/${PROCEDURE}`, { method: "POST", headers, body }).then(async (r) => ({ status: r.status, body: await r.text() }))));
      expect(burst.map((b) => b.status)).toEqual(Array(25).fill(200));
      expect(burst.reduce((n, b) => n + queuedIn(b.body), 0)).toBe(1);
      await smtp.waitFor(2);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.received.filter((m) => m.to.includes("variantes@teste.com.br"))).toHaveLength(2);
      expect(await rowOf(id)).toMatchObject({ status: "sent", lastError: null });
    } finally {
      await server.close();
      await smtp.close();
    }
  }, 60_000);

  it("kill -9 of the built server in the middle of a burst: nothing lost, nothing doubled", async () => {
    const headers = await headersFor();
    const id = await failedEmail("morto@teste.com.br");
    const body = JSON.stringify({ json: { id } });
    // The spawned server has no SMTP: what it leaves in the table is all there is.
    const answered: string[] = [];
    const burst = Array.from({ length: 40 }, () =>
      fetch(`${child.url}/trpc/${PROCEDURE}`, { method: "POST", headers, body }).then(
        async (r) => answered.push(await r.text()),
        () => answered.push("cut"),
      ),
    );
    while (answered.length < 3) await new Promise((r) => setTimeout(r, 2));
    child.proc.kill("SIGKILL");
    await child.exited;
    await Promise.all(burst);
    const row = await rowOf(id);
    const queuedBeforeKill = answered.reduce((n, a) => n + queuedIn(a), 0);
    expect(queuedBeforeKill).toBeLessThanOrEqual(1);
    // Not lost: queued once (pending, no error) or still failing, to be resent.
    expect(row.status === "pending" ? row.lastError : row.status).toBe(row.status === "pending" ? null : "failed");
    if (queuedBeforeKill === 1) expect(row.status).toBe("pending");

    // A new server with SMTP: the queued e-mail goes out once; a still-failing one is resent once.
    // (The child ran on the real clock; bring the test's clock past the time it queued the row.)
    h.clock.advance(Math.max(0, Date.now() - h.clock.now().getTime()) + 1000);
    const smtp = await startSmtpServer();
    const server = await h.startServer({ SMTP_URL: smtp.url });
    try {
      if (row.status === "failed") {
        const again = await fetch(`${server.url}/trpc/${PROCEDURE}`, { method: "POST", headers, body });
        expect(queuedIn(await again.text())).toBe(1);
      } else await server.deps.mailer.flush();
      await smtp.waitFor(1);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.received.filter((m) => m.to.includes("morto@teste.com.br"))).toHaveLength(1);
      expect((await rowOf(id)).status).toBe("sent");
    } finally {
      await server.close();
      await smtp.close();
    }
  }, 60_000);
});

it.skipIf(onRealPostgres())("'Reenviar' from outside needs real PostgreSQL", () => {
  expect(onRealPostgres()).toBe(false);
});
