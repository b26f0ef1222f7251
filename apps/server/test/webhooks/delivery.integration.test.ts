import { schema } from "@elo/db";
import { verifyWebhook, WebhookVerificationError } from "@elo/client";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  h = await createHarness();
  // 600 bytes of answer: the log keeps the first 500.
  receiver = await startReceiver((_r, res) => res.end("a".repeat(600)));
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

async function schoolWithEndpoint(events: string[] = ["voucher.reserved", "voucher.used"]) {
  const school = await createOfferingSchool(h);
  const staff = await createStaff(h, school.id);
  const desk = await h.caller(staff.id);
  const endpoint = await desk.school.webhooks.create({ url: receiver.url(`/${school.id}`), events: events as never, description: "ERP" });
  return { school, staff, desk, endpoint };
}

async function claim(schoolId: string) {
  const benefit = await createDiscount(h, schoolId, { slots: 3 });
  const parent = await eligibleParent(h);
  return (await h.caller(parent.id)).claim.create({ discountId: benefit.id });
}


describe("webhook delivery (Standard Webhooks)", () => {
  it("delivers a signed event the client function and the standardwebhooks package verify; altered, stale or foreign-secret copies are refused", async () => {
    const { school, desk, endpoint } = await schoolWithEndpoint();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const before = receiver.received.length;
    const voucher = await claim(school.id);
    expect(await h.deps.webhooks.flush()).toBe(1);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const { headers, body } = got[0]!;
    const now = h.clock.now().getTime();

    const event = verifyWebhook(endpoint.secret, headers as Record<string, string>, body, { now });
    expect(event.type).toBe("voucher.reserved");
    if (event.type !== "voucher.reserved") throw new Error("typed");
    expect(event.data).toMatchObject({ voucherCode: voucher.voucherCode, status: "reservado" });
    const [stored] = await h.db.select().from(schema.webhookEvents).where(eq(schema.webhookEvents.schoolId, school.id));
    expect(event.id).toBe(stored!.id);

    // The reference implementation agrees (its clock is the real one; the harness clock started at real time).
    expect(new Webhook(endpoint.secret).verify(body, headers as Record<string, string>)).toMatchObject({ type: "voucher.reserved" });

    const refuse = (f: () => unknown) => expect(f).toThrow(WebhookVerificationError);
    refuse(() => verifyWebhook(endpoint.secret, headers as Record<string, string>, body.replace("reservado", "utilizado"), { now }));
    refuse(() => verifyWebhook(endpoint.secret, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) + 1) }, body, { now }));
    refuse(() => verifyWebhook(endpoint.secret, headers as Record<string, string>, body, { now: now + 301_000 }));
    refuse(() => verifyWebhook(endpoint.secret, headers as Record<string, string>, body, { now: now - 301_000 }));
    expect(verifyWebhook(endpoint.secret, headers as Record<string, string>, body, { now: now + 299_000 }).id).toBe(event.id);
    refuse(() => verifyWebhook(foreignSecret, headers as Record<string, string>, body, { now }));
    refuse(() => verifyWebhook(endpoint.secret, { ...headers, "webhook-signature": undefined }, body, { now }));

    // The log: status, latency, the first 500 bytes of the answer.
    const log = await desk.school.webhooks.deliveries({ id: endpoint.id });
    expect(log).toMatchObject([{ eventId: event.id, type: "voucher.reserved", status: "delivered", attempts: 1, lastAttempt: { statusCode: 200, response: "a".repeat(500), error: null } }]);
    expect(log[0]!.lastAttempt!.latencyMs).toBeGreaterThanOrEqual(0);
    // Nothing more is due.
    expect(await h.deps.webhooks.flush()).toBe(0);
  });

  it("'Testar' sends a ping; 'Reenviar' sends an event again with the same webhook-id", async () => {
    const { school, desk, endpoint } = await schoolWithEndpoint();
    const before = receiver.received.length;
    const { eventId } = await desk.school.webhooks.test({ id: endpoint.id });
    await claim(school.id);
    expect(await h.deps.webhooks.flush()).toBe(2);
    const reserved = (await desk.school.webhooks.deliveries({ id: endpoint.id })).find((d) => d.type === "voucher.reserved")!;
    await desk.school.webhooks.resend({ id: endpoint.id, eventId: reserved.eventId });
    expect(await h.deps.webhooks.flush()).toBe(1);
    const got = receiver.received.slice(before).map((r) => verifyWebhook(endpoint.secret, r.headers as Record<string, string>, r.body, { now: h.clock.now().getTime() }));
    expect(got.map((e) => e.type).sort()).toEqual(["ping", "voucher.reserved", "voucher.reserved"]);
    expect(got.find((e) => e.type === "ping")).toMatchObject({ id: eventId, data: { endpointId: endpoint.id } });
    expect(got.filter((e) => e.type === "voucher.reserved").map((e) => e.id)).toEqual([reserved.eventId, reserved.eventId]);
  });

  it("after a rotation signs with both secrets for 24 hours, then with the new one only", async () => {
    const { school, desk, endpoint } = await schoolWithEndpoint();
    const rotated = await desk.school.webhooks.rotateSecret({ id: endpoint.id });
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(await desk.school.webhooks.list()).not.toContainEqual(expect.objectContaining({ secret: expect.anything() }));
    const before = receiver.received.length;
    await claim(school.id);
    await h.deps.webhooks.flush();
    const first = receiver.received[before]!;
    expect(String(first.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) verifyWebhook(secret, first.headers as Record<string, string>, first.body, { now: h.clock.now().getTime() });

    h.clock.advance(24 * 60 * 60 * 1000 + 1000);
    await claim(school.id);
    await h.deps.webhooks.flush();
    const second = receiver.received[before + 1]!;
    const now = h.clock.now().getTime();
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyWebhook(rotated.secret, second.headers as Record<string, string>, second.body, { now }).type).toBe("voucher.reserved");
    expect(() => verifyWebhook(endpoint.secret, second.headers as Record<string, string>, second.body, { now })).toThrow(WebhookVerificationError);
  });
});

const foreignSecret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
