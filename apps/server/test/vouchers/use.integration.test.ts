import { marketplaceMessages as m, schoolMessages } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireDueVouchers } from "../../src/vouchers/expire";
import { marketWorld } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { slotCount } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("the desk's confirmation (reservado → utilizado)", () => {
  it("keeps the slot taken for good: nothing afterwards (expiry, cancellation, giving up) returns it", async () => {
    h.clock.set(new Date("2026-03-10T15:00:00Z"));
    const { parent, school, discount } = await marketWorld(h, { discount: { slots: 2, validity: "first_month" } });
    const api = await h.caller(parent.id);
    const desk = await h.caller((await createStaff(h, school.id)).id);
    const { transactionId, voucherCode } = await api.claim.create({ discountId: discount.id });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 1, reservado: 1, utilizado: 0 });

    await desk.school.vouchers.confirm({ code: voucherCode });
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 1, reservado: 0, utilizado: 1 });

    await expect(desk.school.vouchers.cancel({ code: voucherCode, reason: "outro" })).rejects.toMatchObject({ code: "CONFLICT", message: schoolMessages.voucherAlreadyUsed });
    await expect(api.claim.giveUp({ transactionId })).rejects.toMatchObject({ code: "CONFLICT", toast: { description: m.voucherNotReserved } });
    // Long after its validity ended, the expiry job leaves a used voucher alone.
    h.clock.set(new Date("2026-06-01T12:00:00Z"));
    expect(await expireDueVouchers(h.deps)).toBe(0);
    expect(await slotCount(h, discount.id)).toMatchObject({ remaining: 1, reservado: 0, utilizado: 1, expirado: 0, cancelado: 0 });
    expect((await api.claim.byId({ transactionId })).status).toBe("utilizado");
  });
});
