import { schema } from "@elo/db";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookSender } from "../../src/webhooks/sender";
import { createOfferingSchool } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

let h: Harness;
let fast: Receiver;
let silent: Receiver;
beforeAll(async () => {
  h = await createHarness();
  fast = await startReceiver();
  silent = await startReceiver(() => {});
});
afterAll(async () => {
  await Promise.all([fast.close(), silent.close()]);
  await h.close();
});

/** An endpoint of a new school at `url`, with `n` due deliveries (due at `dueAt`). */
async function endpointWith(url: string, n: number, dueAt: Date) {
  const school = await createOfferingSchool(h);
  const staff = await createStaff(h, school.id);
  const endpoint = await (await h.caller(staff.id)).school.webhooks.create({ url, events: ["voucher.reserved"] });
  const events = await h.db
    .insert(schema.webhookEvents)
    .values(Array.from({ length: n }, () => ({ schoolId: school.id, type: "voucher.reserved", payload: { teste: true } })))
    .returning({ id: schema.webhookEvents.id });
  const deliveries = await h.db
    .insert(schema.webhookDeliveries)
    .values(events.map((e) => ({ eventId: e.id, endpointId: endpoint.id, nextAttemptAt: dueAt })))
    .returning({ id: schema.webhookDeliveries.id });
  return { endpoint, deliveryIds: deliveries.map((d) => d.id) };
}

describe("webhook slots (decision 217)", () => {
  it("a school's endpoint that never answers holds one slot: the other schools' deliveries are sent and written meanwhile", async () => {
    // Long enough that the others, sent meanwhile, finish well before it even on a busy machine.
    const timeoutMs = 8000;
    // The silent endpoint's delivery is the oldest due, so it is claimed first, with others beside it.
    const stuck = await endpointWith(silent.url(), 1, new Date(0));
    const others = await endpointWith(fast.url(), 30, new Date(1000));
    const sender = createWebhookSender({ db: h.db, clock: h.clock, logger: h.deps.logger, mailer: h.deps.mailer, env: h.config, inFlight: 4, post: { production: false, timeoutMs } });
    const started = Date.now();
    const round = sender.flush();
    try {
      // Every other delivery is written as delivered while the silent one is still waiting: with
      // batches that wait for their slowest answer, those claimed beside it would stay pending
      // until its timeout.
      for (;;) {
        const rows = await h.db.select({ status: schema.webhookDeliveries.status }).from(schema.webhookDeliveries).where(inArray(schema.webhookDeliveries.id, others.deliveryIds));
        if (rows.every((r) => r.status === "delivered")) break;
        expect(Date.now() - started, "the other deliveries waited for the silent endpoint").toBeLessThan(timeoutMs - 500);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(Date.now() - started).toBeLessThan(timeoutMs - 500);
      expect(fast.received).toHaveLength(30);
      expect(await h.db.select().from(schema.webhookAttempts).where(eq(schema.webhookAttempts.endpointId, stuck.endpoint.id))).toHaveLength(0);
    } finally {
      expect(await round).toBe(30);
      await sender.stop();
    }
    // Then the silent one times out, and its failed attempt is written.
    const [attempt] = await h.db.select().from(schema.webhookAttempts).where(eq(schema.webhookAttempts.endpointId, stuck.endpoint.id));
    expect(attempt).toMatchObject({ statusCode: null, error: expect.stringContaining("timeout") });
  });
});
