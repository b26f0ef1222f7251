import { schema } from "@elo/db";
import { eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServerBundle, spawnServer, type ChildServer } from "../support/child-server";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { startSmtpServer } from "../support/smtp";
import { onRealPostgres } from "../support/test-db";

/**
 * Issue 16, point 4: two server processes run the outbox worker on one database. E-mails queued
 * before they start and e-mails queued through both while they run are each sent exactly once:
 * each process talks to its own SMTP server, so a message sent by both would arrive twice.
 */
const QUEUED_BEFORE = 200;
const SENT_DURING = 40;

const run = `${process.pid}-${Date.now()}`;
const contact = (i: number) => ({ subject: "Benefícios" as const, name: "Remetente Teste", email: "remetente@teste.com.br", message: `mensagem ${run}-${i} fim` });
const tokenIn = (text: string) => text.match(new RegExp(`mensagem (${run}-\\d+) fim`))?.[1];

describe.skipIf(!onRealPostgres())("the outbox with two server processes (real PostgreSQL, spawned built servers)", () => {
  let h: Harness;
  let bundle: ReturnType<typeof buildServerBundle>;
  const servers: ChildServer[] = [];
  const smtps: Awaited<ReturnType<typeof startSmtpServer>>[] = [];

  beforeAll(async () => {
    h = await createHarness({ poolMax: 4 });
    bundle = buildServerBundle();
  }, 180_000);
  afterAll(async () => {
    for (const s of servers) await s.dispose();
    for (const s of smtps) await s.close();
    bundle?.remove();
    await h?.close();
  });

  it(`sends each of ${QUEUED_BEFORE + SENT_DURING} e-mails exactly once`, async () => {
    // Queued through the procedure by a process without SMTP: they wait in the outbox.
    const anon = await h.caller(null);
    for (let i = 0; i < QUEUED_BEFORE; i++) await anon.contact.send(contact(i));

    // SMTP servers that answer at once: the workers spend most of their time claiming rows, where two
    // of them can collide (with the claim's row lock removed, 19 of 240 e-mails went out twice).
    smtps.push(await startSmtpServer(), await startSmtpServer());
    const url = (h.dbHandle as { url: string }).url;
    servers.push(...(await Promise.all(smtps.map((smtp) => spawnServer(bundle.bundle, url, { SMTP_URL: smtp.url })))));

    // More, through both processes while their workers drain the queue.
    const answers = await Promise.all(
      Array.from({ length: SENT_DURING }, (_, k) =>
        fetch(`${servers[k % 2]!.url}/trpc/contact.send`, {
          method: "POST",
          headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
          body: JSON.stringify({ json: contact(QUEUED_BEFORE + k) }),
        }).then((r) => r.status),
      ),
    );
    expect(answers).toEqual(Array(SENT_DURING).fill(200));

    const total = QUEUED_BEFORE + SENT_DURING;
    const received = () => smtps.flatMap((s) => s.received);
    const pending = async () => (await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(eq(schema.emailOutbox.status, "pending"))).length;
    const deadline = Date.now() + 60_000;
    while ((received().length < total || (await pending()) > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    // A late duplicate would come within a few more exchanges.
    await new Promise((r) => setTimeout(r, 1000));

    const tokens = received().map((m) => tokenIn(m.text));
    const times = new Map<string, number>();
    for (const t of tokens) times.set(String(t), (times.get(String(t)) ?? 0) + 1);
    const expected = Array.from({ length: total }, (_, i) => `${run}-${i}`);
    const twice = [...times].filter(([, n]) => n > 1).map(([t]) => t);
    const lost = expected.filter((t) => !times.has(t));
    console.log(`[outbox-two-processes] ${JSON.stringify({ total, received: tokens.length, byProcess: smtps.map((s) => s.received.length), twice: twice.length, lost: lost.length })}`);

    expect(twice, "e-mails sent more than once").toEqual([]);
    expect(lost, "e-mails never sent").toEqual([]);
    expect(tokens.sort()).toEqual(expected.sort());
    // Both workers really took part: otherwise nothing was shown.
    for (const smtp of smtps) expect(smtp.received.length).toBeGreaterThan(0);
    const unsent = await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(ne(schema.emailOutbox.status, "sent"));
    expect(unsent).toEqual([]);
    const rows = await h.db.select({ attempts: schema.emailOutbox.attempts }).from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "contact"));
    expect(rows.map((r) => r.attempts)).toEqual(Array(total).fill(1));
  }, 180_000);
});

it.skipIf(onRealPostgres())("the two-process outbox test needs real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
