import { schema } from "@elo/db";
import { schoolMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireDueVouchers } from "../../src/vouchers/expire";
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

const at = (iso: string) => h.clock.set(new Date(iso));

describe("voucher expiry (reservado → expirado)", () => {
  it("expires a claimed voucher the day after its last valid day, gives its slot back once, and both panels say 'expirado'", async () => {
    at("2026-03-10T15:00:00Z");
    const { parent, school, discount } = await marketWorld(h, { discount: { slots: 2, validity: "first_month" } });
    const api = await h.caller(parent.id);
    const desk = await h.caller((await createStaff(h, school.id)).id);
    const { transactionId, voucherCode } = await api.claim.create({ discountId: discount.id });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 1, reservado: 1 });

    // Its last valid day (10 April) is not past yet, even late in the evening in Brasília.
    at("2026-04-11T02:59:00Z");
    expect(await expireDueVouchers(h.deps)).toBe(0);
    expect((await api.claim.byId({ transactionId })).status).toBe("reservado");

    at("2026-04-11T03:01:00Z");
    expect(await expireDueVouchers(h.deps)).toBe(1);
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 2, reservado: 0, expirado: 1 });
    const [stored] = await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, transactionId));
    expect(stored).toMatchObject({ status: "expirado", endedAt: h.clock.now(), redeemedAt: null });

    // A second run, or a later one, never returns the slot again.
    expect(await expireDueVouchers(h.deps)).toBe(0);
    at("2026-06-01T12:00:00Z");
    expect(await expireDueVouchers(h.deps)).toBe(0);
    expect((await slotCount(h, discount.id)).remaining).toBe(2);

    expect((await api.claim.history()).find((e) => e.transactionId === transactionId)).toMatchObject({ status: "expirado", expired: true });
    expect((await api.claim.byId({ transactionId })).status).toBe("expirado");
    expect(await desk.school.vouchers.lookup({ code: voucherCode })).toMatchObject({ status: "expirado" });
    expect((await desk.school.vouchers.list({ status: "expirado" })).map((v) => v.voucherCode)).toEqual([voucherCode]);
    expect(await desk.school.vouchers.list({ status: "reservado" })).toEqual([]);
    await expect(desk.school.vouchers.confirm({ code: voucherCode })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherExpired });
  });

  it("leaves used vouchers and vouchers still valid alone, and works through more than one batch", async () => {
    at("2026-05-20T12:00:00Z");
    const { school } = await marketWorld(h);
    const benefit = await createDiscount(h, school.id, { slots: 0 });
    const parent = await createUser(h);
    const used = await insertVoucher(h, benefit, parent.id, { status: "utilizado", validUntil: "2026-01-31" });
    const valid = await insertVoucher(h, benefit, parent.id, { validUntil: "2026-05-20" });
    for (let i = 0; i < 5; i++) await insertVoucher(h, benefit, parent.id, { validUntil: "2026-05-19" });

    expect(await expireDueVouchers(h.deps, 2)).toBe(2);
    expect(await expireDueVouchers(h.deps, 10)).toBe(3);
    expect(await slotCount(h, benefit.id)).toEqual({ remaining: 5, reservado: 1, utilizado: 1, expirado: 5, cancelado: 0 });
    const statuses = await h.db.select({ id: schema.discountTransactions.id, status: schema.discountTransactions.status }).from(schema.discountTransactions).where(eq(schema.discountTransactions.discountId, benefit.id));
    expect(statuses.find((s) => s.id === used.id)?.status).toBe("utilizado");
    expect(statuses.find((s) => s.id === valid.id)?.status).toBe("reservado");
  });
});

describe("the server's scheduler", () => {
  it("expires due vouchers by itself while the server runs, and stops with it", async () => {
    at("2026-07-01T12:00:00Z");
    const { school } = await marketWorld(h);
    const benefit = await createDiscount(h, school.id, { slots: 0 });
    const voucher = await insertVoucher(h, benefit, (await createUser(h)).id, { validUntil: "2026-06-30" });
    const server = await h.startServer({ JOBS_INTERVAL_MS: "50" });
    try {
      const deadline = Date.now() + 10_000;
      while ((await slotCount(h, benefit.id)).expirado === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 1, expirado: 1 });
    } finally {
      await server.close();
    }
    // After close nothing runs any more: a voucher due now stays reserved.
    const later = await insertVoucher(h, benefit, (await createUser(h)).id, { validUntil: "2026-06-30" });
    await new Promise((r) => setTimeout(r, 300));
    const [row] = await h.db.select({ status: schema.discountTransactions.status }).from(schema.discountTransactions).where(eq(schema.discountTransactions.id, later.id));
    expect(row?.status).toBe("reservado");
    expect(voucher.id).not.toBe(later.id);
  });
});
