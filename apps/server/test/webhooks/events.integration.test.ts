import { schema } from "@elo/db";
import { WEBHOOK_EVENT_TYPES } from "@elo/shared";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireDueVouchers } from "../../src/vouchers/expire";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { insertProof } from "../support/factories/proofs";
import { createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const eventsOf = (schoolId: string) => h.db.select().from(schema.webhookEvents).where(eq(schema.webhookEvents.schoolId, schoolId)).orderBy(asc(schema.webhookEvents.createdAt));

/** The desk's value as the payload carries it: instants as ISO text, numeric columns as numbers. */
const asPayload = (desk: unknown, sent: unknown) => (desk instanceof Date ? desk.toISOString() : typeof sent === "number" && typeof desk === "string" ? Number(desk) : desk);

/** Every field of the payload is a field the desk's own view shows, with the same value: nothing more. */
function expectDeskView(payload: Record<string, unknown>, desk: Record<string, unknown>) {
  for (const [key, value] of Object.entries(payload)) {
    expect(Object.keys(desk), `payload field ${key} is not in the desk's view`).toContain(key);
    expect(value, key).toEqual(asPayload(desk[key], value));
  }
}

async function parentWithApi() {
  const parent = await eligibleParent(h);
  return { parent, api: await h.caller(parent.id) };
}

describe("webhook events: recorded by each change, in its transaction, with the desk's view", () => {
  it("emits each of the 8 types once per change, only for the school with an endpoint wanting it", async () => {
    const school = await createOfferingSchool(h);
    const other = await createOfferingSchool(h);
    const staff = await createStaff(h, school.id);
    const desk = await h.caller(staff.id);
    await desk.school.webhooks.create({ url: "http://localhost:9/todos", events: [...WEBHOOK_EVENT_TYPES] });
    const usedOnly = await desk.school.webhooks.create({ url: "http://localhost:9/usados", events: ["voucher.used"] });

    const benefit = await createDiscount(h, school.id, { slots: 5, className: "Inglês Kids" });
    const otherBenefit = await createDiscount(h, other.id, { slots: 5 });
    const [p1, p2, p3, p4] = await Promise.all([parentWithApi(), parentWithApi(), parentWithApi(), parentWithApi()]);
    const v1 = await p1!.api.claim.create({ discountId: benefit.id });
    const v2 = await p2!.api.claim.create({ discountId: benefit.id });
    const v3 = await p3!.api.claim.create({ discountId: benefit.id });
    await p4!.api.claim.create({ discountId: benefit.id });
    await p1!.api.claim.create({ discountId: otherBenefit.id });

    const [reserved] = (await eventsOf(school.id)).filter((e) => e.type === "voucher.reserved");
    expectDeskView(reserved!.payload as Record<string, unknown>, await desk.school.vouchers.lookup({ code: v1.voucherCode }));
    expect(reserved!.payload).toMatchObject({ voucherCode: v1.voucherCode, status: "reservado", className: "Inglês Kids", parentName: "Responsável de Teste" });

    const used = await desk.school.vouchers.confirm({ code: v1.voucherCode });
    await desk.school.vouchers.cancel({ code: v2.voucherCode, reason: "nao_matriculado" });
    await p3!.api.claim.giveUp({ transactionId: v3.transactionId });

    // A one-slot benefit: sold out by a claim; a give-up hands the slot to the waitlist (offered, not reopened).
    const single = await createDiscount(h, school.id, { slots: 1, className: "Espanhol" });
    const [p5, p6] = await Promise.all([parentWithApi(), parentWithApi()]);
    const v5 = await p5!.api.claim.create({ discountId: single.id });
    const benefitsWhenSoldOut = await desk.school.benefits.list();
    await p6!.api.waitlist.join({ discountId: single.id });
    await p5!.api.claim.giveUp({ transactionId: v5.transactionId });
    await p6!.api.waitlist.claimOffer({ discountId: single.id });

    await insertProof(h, p1!.parent.id, school.id, { studentName: "Aluno Comprovado" });

    h.clock.advance(400 * 24 * 60 * 60 * 1000);
    expect(await expireDueVouchers(h.deps)).toBe(3); // p4 and p6 here, p1 at the other school

    const events = await eventsOf(school.id);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect(Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, count(t)]))).toEqual({
      "voucher.reserved": 6,
      "voucher.used": 1,
      "voucher.cancelled": 1,
      "voucher.given_up": 2,
      "voucher.expired": 2,
      "waitlist.offered": 1,
      "benefit.sold_out": 1,
      "enrollment.verification_requested": 1,
    });
    expect(await eventsOf(other.id)).toEqual([]);

    const byType = (type: string) => events.find((e) => e.type === type)!.payload as Record<string, unknown>;
    expectDeskView(byType("voucher.used"), used);
    expect(byType("voucher.used")).toMatchObject({ status: "utilizado", redeemedByName: expect.any(String) });
    expect(byType("voucher.cancelled")).toMatchObject({ status: "cancelado", cancelReason: "nao_matriculado", cancelledByParent: false });
    expect(byType("voucher.given_up")).toMatchObject({ status: "cancelado", cancelReason: "desistencia", cancelledByParent: true });
    const soldOut = byType("benefit.sold_out");
    expectDeskView(soldOut, benefitsWhenSoldOut.find((b) => b.id === single.id)! as unknown as Record<string, unknown>);
    expect(soldOut).toMatchObject({ id: single.id, numberOfStudents: 0 });
    const offered = byType("waitlist.offered");
    expect(offered).toMatchObject({ discountId: single.id, className: "Espanhol", waiting: 0, offered: 1 });
    // The desk's waitlist counts (now the offer was claimed) have the same fields.
    for (const key of Object.keys(offered)) expect(Object.keys((await desk.school.waitlist.list())[0]!)).toContain(key);
    const proof = byType("enrollment.verification_requested");
    expectDeskView(proof, (await desk.school.verifications.list()).find((p) => p.id === proof.id)! as unknown as Record<string, unknown>);
    expect(proof).toMatchObject({ studentName: "Aluno Comprovado", status: "enviado" });

    // Deliveries: every event to the catch-all endpoint, only 'voucher.used' to the other.
    const deliveries = await h.db.select().from(schema.webhookDeliveries);
    const mine = new Set(events.map((e) => e.id));
    const ofEndpoint = (id: string) => deliveries.filter((d) => d.endpointId === id && mine.has(d.eventId));
    expect(ofEndpoint(usedOnly.id).map((d) => events.find((e) => e.id === d.eventId)!.type)).toEqual(["voucher.used"]);
    expect(deliveries.filter((d) => mine.has(d.eventId))).toHaveLength(events.length + 1);
  });

  it("records nothing when the change is rolled back, and nothing for a paused endpoint", async () => {
    const school = await createOfferingSchool(h);
    const desk = await h.caller((await createStaff(h, school.id)).id);
    const ep = await desk.school.webhooks.create({ url: "http://localhost:9/x", events: ["voucher.reserved"] });
    const benefit = await createDiscount(h, school.id, { slots: 3 });
    const { api } = await parentWithApi();
    await expect(
      h.db.transaction(async (tx) => {
        await tx.update(schema.discounts).set({ numberOfStudents: 0 }).where(eq(schema.discounts.id, benefit.id));
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    await desk.school.webhooks.pause({ id: ep.id });
    await api.claim.create({ discountId: benefit.id });
    expect(await eventsOf(school.id)).toEqual([]);
    await desk.school.webhooks.resume({ id: ep.id });
    const { api: api2 } = await parentWithApi();
    await api2.claim.create({ discountId: benefit.id });
    expect((await eventsOf(school.id)).map((e) => e.type)).toEqual(["voucher.reserved"]);
  });
});
