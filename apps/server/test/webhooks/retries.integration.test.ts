import { schema } from "@elo/db";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookSender } from "../../src/webhooks/sender";
import { RETRY_WINDOW_MS, retryDelayMs } from "../../src/webhooks/retry";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

let h: Harness;
let receiver: Receiver;
/** What the receiver answers now, by path. */
const answers = new Map<string, number>();
beforeAll(async () => {
  h = await createHarness();
  receiver = await startReceiver((r, res) => {
    res.statusCode = answers.get(r.path) ?? 200;
    res.end("falhou");
  });
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

const delivery = async (endpointId: string) => (await h.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, endpointId)))[0]!;
const endpointRow = async (id: string) => (await h.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, id)))[0]!;

async function failingEndpoint(url: string) {
  const school = await createOfferingSchool(h);
  const staff = await createStaff(h, school.id);
  const desk = await h.caller(staff.id);
  const endpoint = await desk.school.webhooks.create({ url, events: ["voucher.reserved"] });
  const benefit = await createDiscount(h, school.id, { slots: 3 });
  await (await h.caller((await eligibleParent(h)).id)).claim.create({ discountId: benefit.id });
  return { school, staff, desk, endpoint };
}

describe("webhook retries (controllable clock)", () => {
  it("backs off exponentially with jitter, capped at 12 hours", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, () => 1))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(1, () => 0)).toBe(15_000);
    expect(retryDelayMs(30, () => 1)).toBe(12 * 60 * 60 * 1000);
  });

  it("retries a 500 on its schedule, pauses the endpoint after 3 days, gives the delivery up and e-mails the school's staff once", async () => {
    const status500 = receiver.url("/sempre-500");
    const { staff, desk, endpoint } = await failingEndpoint(status500);
    const sender = createWebhookSender({ db: h.db, clock: h.clock, logger: h.deps.logger, mailer: h.deps.mailer, env: h.config, random: () => 1 });
    answers.set("/sempre-500", 500);
    try {
      const start = h.clock.now().getTime();
      expect(await sender.flush()).toBe(0);
      let row = await delivery(endpoint.id);
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row.nextAttemptAt.getTime() - start).toBe(30_000);
      // Not due yet: nothing is sent.
      const sent = receiver.received.length;
      h.clock.advance(29_000);
      await sender.flush();
      expect(receiver.received.length).toBe(sent);
      const waits: number[] = [];
      while ((await endpointRow(endpoint.id)).status === "active") {
        row = await delivery(endpoint.id);
        waits.push(row.nextAttemptAt.getTime() - h.clock.now().getTime());
        h.clock.set(row.nextAttemptAt);
        await sender.flush();
        if (waits.length > 40) throw new Error("never paused");
      }
      // 1 s left of the first wait, then 60 s, 120 s... (random = 1: the full exponential step).
      expect(waits.slice(0, 8)).toEqual([1_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_840_000]);
      expect(h.clock.now().getTime() - start).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
      expect(h.clock.now().getTime() - start).toBeLessThan(RETRY_WINDOW_MS + 13 * 60 * 60 * 1000);
      expect(await endpointRow(endpoint.id)).toMatchObject({ status: "paused", pausedReason: "failing" });
      expect(await delivery(endpoint.id)).toMatchObject({ status: "failed" });
      const mails = await h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.kind, "webhook-paused"), eq(schema.emailOutbox.to, staff.email)));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(status500);
      const log = await desk.school.webhooks.deliveries({ id: endpoint.id });
      expect(log[0]!.lastAttempt).toMatchObject({ statusCode: 500, response: "falhou" });
      // Paused: nothing is tried any more. Resumed: a fresh window, and 'Reenviar' delivers once it answers 2xx.
      const tries = receiver.received.length;
      h.clock.advance(RETRY_WINDOW_MS);
      await sender.flush();
      expect(receiver.received.length).toBe(tries);
      answers.delete("/sempre-500");
      await desk.school.webhooks.resume({ id: endpoint.id });
      await desk.school.webhooks.resend({ id: endpoint.id, eventId: log[0]!.eventId });
      expect(await sender.flush()).toBe(1);
      expect(await endpointRow(endpoint.id)).toMatchObject({ status: "active", failingSince: null });
    } finally {
      answers.delete("/sempre-500");
      await sender.stop();
    }
  });

  it("counts a redirect, a timeout and a refused connection as failures, never following the redirect", async () => {
    const target = await startReceiver();
    const redirecting = await startReceiver((_r, res) => {
      res.statusCode = 302;
      res.setHeader("location", target.url("/roubado"));
      res.end();
    });
    const silent = await startReceiver(() => {});
    const sender = createWebhookSender({ db: h.db, clock: h.clock, logger: h.deps.logger, mailer: h.deps.mailer, env: h.config, post: { production: false, timeoutMs: 300 } });
    try {
      const a = await failingEndpoint(redirecting.url());
      const b = await failingEndpoint(silent.url());
      const c = await failingEndpoint("http://localhost:1/fechado");
      await sender.flush();
      expect(target.received).toHaveLength(0);
      expect(await delivery(a.endpoint.id)).toMatchObject({ status: "pending", attempts: 1 });
      expect((await h.db.select().from(schema.webhookAttempts).where(eq(schema.webhookAttempts.endpointId, a.endpoint.id)))[0]).toMatchObject({ statusCode: 302 });
      expect((await h.db.select().from(schema.webhookAttempts).where(eq(schema.webhookAttempts.endpointId, b.endpoint.id)))[0]).toMatchObject({ statusCode: null, error: expect.stringContaining("timeout") });
      expect((await h.db.select().from(schema.webhookAttempts).where(eq(schema.webhookAttempts.endpointId, c.endpoint.id)))[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
    } finally {
      await sender.stop();
      await Promise.all([target.close(), redirecting.close(), silent.close()]);
    }
  });
});
