import { schema } from "@elo/db";
import { marketplaceMessages as m, schoolMessages } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiscount, marketWorld } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { insertVoucher, slotCount } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const mailsTo = (email: string, kind: string) => h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, kind)));
const stored = async (id: string) => (await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, id)))[0]!;

/** A parent holding a claimed voucher of a 2-slot benefit, and the school's desk. */
async function claimedVoucher() {
  const { parent, school, discount } = await marketWorld(h, { discount: { slots: 2 } });
  const staff = await createStaff(h, school.id);
  const api = await h.caller(parent.id);
  const claim = await api.claim.create({ discountId: discount.id });
  return { parent, api, staff, school, desk: await h.caller(staff.id), discount, ...claim };
}

describe("cancellation by the school's desk (reservado → cancelado)", () => {
  it("cancels with a reason: the slot returns once, the parent gets an e-mail and sees 'cancelado' with the reason", async () => {
    const { parent, api, staff, school, desk, discount, transactionId, voucherCode } = await claimedVoucher();
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 1, reservado: 1 });

    const cancelled = await desk.school.vouchers.cancel({ code: voucherCode.toLowerCase(), reason: "nao_matriculado" });
    expect(cancelled).toMatchObject({ status: "cancelado", cancelReason: "nao_matriculado", cancelledByParent: false, endedAt: h.clock.now() });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 2, reservado: 0, cancelado: 1 });
    expect(await stored(transactionId)).toMatchObject({ status: "cancelado", cancelReason: "nao_matriculado", cancelledBy: staff.id, redeemedAt: null });

    const [mail, ...more] = await mailsTo(parent.email, "voucher-cancelled");
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(m.cancelMailSubject(school.name));
    for (const text of [voucherCode, "Motivo: Não matriculado", "/painel-pais"]) expect(mail!.text).toContain(text);

    expect((await api.claim.history())[0]).toMatchObject({ transactionId, status: "cancelado", cancelReason: "nao_matriculado", cancelledByParent: false });
    expect((await api.claim.byId({ transactionId })).status).toBe("cancelado");
    expect((await desk.school.vouchers.list({ status: "cancelado" })).map((v) => v.voucherCode)).toEqual([voucherCode]);
    expect(await desk.school.vouchers.list({ status: "reservado" })).toEqual([]);

    // Nothing more happens, whatever is tried next.
    await expect(desk.school.vouchers.cancel({ code: voucherCode, reason: "outro" })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherAlreadyCancelled });
    await expect(desk.school.vouchers.confirm({ code: voucherCode })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherAlreadyCancelled });
    await expect(api.claim.giveUp({ transactionId })).rejects.toMatchObject({ code: "CONFLICT", toast: { description: m.voucherNotReserved } });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 2, cancelado: 1 });
    expect(await mailsTo(parent.email, "voucher-cancelled")).toHaveLength(1);
  });

  it("refuses used, expired and unknown vouchers and reasons off the list, changing nothing", async () => {
    const { school } = await marketWorld(h);
    const desk = await h.caller((await createStaff(h, school.id)).id);
    const benefit = await createDiscount(h, school.id, { slots: 0 });
    const parent = await createUser(h);
    const used = await insertVoucher(h, benefit, parent.id, { status: "utilizado" });
    const expired = await insertVoucher(h, benefit, parent.id, { validUntil: "2020-01-31" });
    const reserved = await insertVoucher(h, benefit, parent.id);
    await expect(desk.school.vouchers.cancel({ code: used.voucherCode, reason: "outro" })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherAlreadyUsed });
    await expect(desk.school.vouchers.cancel({ code: expired.voucherCode, reason: "outro" })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherExpired });
    await expect(desk.school.vouchers.cancel({ code: "9999-ZZZZ", reason: "outro" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(desk.school.vouchers.cancel({ code: reserved.voucherCode, reason: "sumiu" as never })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(desk.school.vouchers.cancel({ code: reserved.voucherCode } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await slotCount(h, benefit.id)).toEqual({ remaining: 0, reservado: 2, utilizado: 1, expirado: 0, cancelado: 0 });
    expect(await mailsTo(parent.email, "voucher-cancelled")).toEqual([]);
  });

  it("the state change and its e-mail are one transaction: when the e-mail cannot be queued, nothing is cancelled", async () => {
    const { desk, discount, transactionId, voucherCode } = await claimedVoucher();
    const enqueue = h.deps.mailer.enqueue;
    h.deps.mailer.enqueue = async () => {
      throw new Error("outbox unavailable");
    };
    try {
      await expect(desk.school.vouchers.cancel({ code: voucherCode, reason: "desistencia" })).rejects.toMatchObject({ code: "INTERNAL_SERVER_ERROR" });
    } finally {
      h.deps.mailer.enqueue = enqueue;
    }
    expect(await stored(transactionId)).toMatchObject({ status: "reservado", cancelReason: null, endedAt: null });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 1, reservado: 1, cancelado: 0 });
    // And it works once the outbox is back.
    await desk.school.vouchers.cancel({ code: voucherCode, reason: "desistencia" });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 2, cancelado: 1 });
  });
});

describe("a parent giving a voucher up (/painel-pais)", () => {
  it("cancels their own reserved voucher as 'desistência': the slot returns once, no e-mail, the desk sees who did it", async () => {
    const { parent, api, desk, discount, transactionId, voucherCode } = await claimedVoucher();
    const stranger = await h.caller((await createUser(h)).id);
    await expect(stranger.claim.giveUp({ transactionId })).rejects.toMatchObject({ code: "NOT_FOUND", message: m.transactionNotFound });

    expect(await api.claim.giveUp({ transactionId })).toEqual({ transactionId, status: "cancelado" });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 2, reservado: 0, cancelado: 1 });
    expect(await stored(transactionId)).toMatchObject({ status: "cancelado", cancelReason: "desistencia", cancelledBy: parent.id });
    expect((await api.claim.history())[0]).toMatchObject({ status: "cancelado", cancelReason: "desistencia", cancelledByParent: true });
    expect(await desk.school.vouchers.lookup({ code: voucherCode })).toMatchObject({ status: "cancelado", cancelReason: "desistencia", cancelledByParent: true });
    expect(await mailsTo(parent.email, "voucher-cancelled")).toEqual([]);

    await expect(api.claim.giveUp({ transactionId })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await slotCount(h, discount.id)).remaining).toBe(2);
    // One claim per parent and benefit stays the rule: giving up does not allow claiming again.
    await expect(api.claim.create({ discountId: discount.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.duplicateTitle } });
  });
});
