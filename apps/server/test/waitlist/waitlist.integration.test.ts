import { schema } from "@elo/db";
import { marketplaceMessages as m, waitlistMessages as w } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lapseDueOffers } from "../../src/waitlist/offers";
import { expireDueVouchers } from "../../src/vouchers/expire";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { createSchool, createStaff, nicheIds } from "../support/factories/schools";
import { insertVoucher, slotCount } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let mainSchoolId: string;
beforeAll(async () => {
  h = await createHarness();
  mainSchoolId = (await createSchool(h, { niche: "Ed. Básica" })).id;
});
afterAll(() => h.close());

const HOURS_48 = 48 * 60 * 60 * 1000;
type Api = Awaited<ReturnType<Harness["caller"]>>;

async function parent() {
  const p = await eligibleParent(h, { schoolId: mainSchoolId });
  return { ...p, api: await h.caller(p.id) };
}

/** A Gold school with its desk and one benefit of `slots` slots. */
async function benefitWithDesk(slots: number) {
  const school = await createOfferingSchool(h);
  const desk = await h.caller((await createStaff(h, school.id)).id);
  const benefit = await createDiscount(h, school.id, { slots, className: `Lista ${Math.random().toString(36).slice(2, 8)}` });
  return { school, desk, benefit };
}

const card = async (api: Api, discountId: string) => (await api.marketplace.list({ limit: 100 })).items.find((i) => i.discountId === discountId);
const place = async (userId: string, discountId: string) =>
  (await h.db.select().from(schema.waitlistEntries).where(and(eq(schema.waitlistEntries.userId, userId), eq(schema.waitlistEntries.discountId, discountId))))[0];
const mails = (email: string, kind: string) => h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, kind)));

describe("the waitlist of a sold-out benefit", () => {
  it("joins in order, offers a returned slot to the first in line alone for 48 hours, and turns the offer into a voucher", async () => {
    const { desk, benefit } = await benefitWithDesk(1);
    const a = await parent();
    const b = await parent();
    const c = await parent();
    const outsider = await parent();

    // With a slot free there is nothing to wait for.
    await expect(b.api.waitlist.join({ discountId: benefit.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { description: w.stillSlots } });
    const claimA = await a.api.claim.create({ discountId: benefit.id });
    // Sold out: the card stays, B and C join; A (who holds it) cannot.
    expect(await card(b.api, benefit.id)).toMatchObject({ numberOfStudents: 0, claimed: false, waitlist: null });
    await expect(a.api.waitlist.join({ discountId: benefit.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.duplicateTitle } });
    expect(await b.api.waitlist.join({ discountId: benefit.id })).toEqual({ discountId: benefit.id, status: "waiting" });
    await expect(b.api.waitlist.join({ discountId: benefit.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { description: w.alreadyWaiting } });
    h.clock.advance(1000);
    await c.api.waitlist.join({ discountId: benefit.id });
    expect((await card(b.api, benefit.id))?.waitlist).toEqual({ status: "waiting", position: 1, offerExpiresAt: null });
    expect((await card(c.api, benefit.id))?.waitlist).toEqual({ status: "waiting", position: 2, offerExpiresAt: null });
    expect(await c.api.waitlist.mine()).toEqual([expect.objectContaining({ discountId: benefit.id, status: "waiting", position: 2, className: benefit.className })]);
    // The place is part of what the platform holds about C (LGPD export).
    expect((await c.api.privacy.export()).waitlist).toEqual([expect.objectContaining({ discountId: benefit.id, className: benefit.className, status: "waiting" })]);
    expect(await desk.school.waitlist.list()).toEqual([expect.objectContaining({ discountId: benefit.id, waiting: 2, offered: 0, freeSlots: 0 })]);

    // The school cancels A's voucher: the slot goes to B, held for B alone.
    await desk.school.vouchers.cancel({ code: claimA.voucherCode, reason: "desistencia" });
    const offeredAt = h.clock.now();
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 0, reservado: 0, cancelado: 1 });
    expect(await place(b.id, benefit.id)).toMatchObject({ status: "offered", offeredAt, offerExpiresAt: new Date(offeredAt.getTime() + HOURS_48) });
    const [offerMail, ...more] = await mails(b.email, "waitlist-offer");
    expect(more).toEqual([]);
    expect(offerMail!.text).toContain("/painel-pais");
    expect(offerMail!.text).toContain("A vaga fica reservada só para você até");
    expect(await mails(c.email, "waitlist-offer")).toEqual([]);
    expect((await card(b.api, benefit.id))?.waitlist).toMatchObject({ status: "offered", position: null });
    expect((await card(c.api, benefit.id))?.waitlist).toMatchObject({ status: "waiting", position: 1 });
    expect(await desk.school.waitlist.list()).toEqual([expect.objectContaining({ waiting: 1, offered: 1 })]);

    // Nobody else can take the held slot.
    await expect(outsider.api.claim.create({ discountId: benefit.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.unavailableTitle } });
    await expect(c.api.waitlist.claimOffer({ discountId: benefit.id })).rejects.toMatchObject({ code: "NOT_FOUND", toast: { title: w.offerGoneTitle } });
    await expect(c.api.claim.create({ discountId: benefit.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.unavailableTitle } });

    // B claims within the window and gets a voucher, with its e-mail.
    h.clock.advance(HOURS_48 - 60_000);
    const claimB = await b.api.waitlist.claimOffer({ discountId: benefit.id });
    expect(claimB.voucherCode).toMatch(/^\d{4}-[A-Z]{4}$/);
    expect(await place(b.id, benefit.id)).toMatchObject({ status: "claimed", transactionId: claimB.transactionId });
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 0, reservado: 1, cancelado: 1 });
    expect((await mails(b.email, "voucher")).map((x) => x.text?.includes(claimB.voucherCode))).toEqual([true]);
    expect(await card(b.api, benefit.id)).toMatchObject({ claimed: true, waitlist: null });
    expect((await b.api.claim.byId({ transactionId: claimB.transactionId })).status).toBe("reservado");
    await expect(b.api.waitlist.claimOffer({ discountId: benefit.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await b.api.waitlist.mine()).toEqual([]);
  });

  it("an offer that lapses passes to the next in line; a declined one too; with nobody left the slot returns to the benefit", async () => {
    const { benefit } = await benefitWithDesk(0);
    const holder = await parent();
    const voucher = await insertVoucher(h, benefit, holder.id, { validUntil: "2020-01-01" });
    const b = await parent();
    const c = await parent();
    await b.api.waitlist.join({ discountId: benefit.id });
    h.clock.advance(1000);
    await c.api.waitlist.join({ discountId: benefit.id });

    // The expiry job frees the holder's slot: B is offered it.
    expect(await expireDueVouchers(h.deps)).toBeGreaterThanOrEqual(1);
    expect((await place(b.id, benefit.id))?.status).toBe("offered");
    expect((await h.db.select().from(schema.discountTransactions).where(eq(schema.discountTransactions.id, voucher.id)))[0]?.status).toBe("expirado");

    // 48 hours pass without an answer: B's offer lapses and C gets the slot.
    h.clock.advance(HOURS_48 - 1);
    expect(await lapseDueOffers(h.deps)).toBe(0);
    h.clock.advance(1);
    expect(await lapseDueOffers(h.deps)).toBe(1);
    expect((await place(b.id, benefit.id))?.status).toBe("lapsed");
    expect((await place(c.id, benefit.id))?.status).toBe("offered");
    await expect(b.api.waitlist.claimOffer({ discountId: benefit.id })).rejects.toMatchObject({ code: "NOT_FOUND", toast: { title: w.offerGoneTitle } });
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 0 });

    // C declines: nobody is left, so the slot returns to the benefit and anyone may claim it.
    expect(await c.api.waitlist.leave({ discountId: benefit.id })).toEqual({ discountId: benefit.id, declinedOffer: true });
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 1 });
    await expect(c.api.waitlist.leave({ discountId: benefit.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // B, whose offer lapsed, may join again at the back; with a slot free, they claim instead.
    await expect(b.api.waitlist.join({ discountId: benefit.id })).rejects.toMatchObject({ toast: { description: w.stillSlots } });
    await b.api.claim.create({ discountId: benefit.id });
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 0, reservado: 1 });
  });

  it("slots the school adds go to the line first; a paused benefit offers nothing until it is reactivated", async () => {
    const { desk, benefit } = await benefitWithDesk(0);
    const waiting = [await parent(), await parent(), await parent()];
    for (const p of waiting) {
      await p.api.waitlist.join({ discountId: benefit.id });
      h.clock.advance(1000);
    }
    const form = {
      teachingStage: "iniciante" as const,
      ...(await nicheIds(h, "Idiomas")),
      className: benefit.className,
      classPeriod: "tarde" as const,
      discountScope: "all_except_own" as const,
      monthlyFee: 500,
      discountPercentage: 20,
      discountValidity: "first_3_months" as const,
      numberOfStudents: 2,
    };
    await desk.school.benefits.update({ id: benefit.id, values: form });
    expect(await Promise.all(waiting.map(async (p) => (await place(p.id, benefit.id))?.status))).toEqual(["offered", "offered", "waiting"]);
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 0 });
    expect(await desk.school.waitlist.list()).toEqual([expect.objectContaining({ waiting: 1, offered: 2 })]);

    // Paused: the first offer lapses, and its slot waits on the benefit instead of going to the third parent.
    await desk.school.benefits.pause({ id: benefit.id });
    await expect(waiting[1]!.api.waitlist.claimOffer({ discountId: benefit.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.unavailableTitle } });
    expect((await place(waiting[1]!.id, benefit.id))?.status).toBe("offered");
    h.clock.advance(HOURS_48);
    expect(await lapseDueOffers(h.deps)).toBe(2);
    expect((await place(waiting[2]!.id, benefit.id))?.status).toBe("waiting");
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 2 });
    await desk.school.benefits.reactivate({ id: benefit.id });
    expect((await place(waiting[2]!.id, benefit.id))?.status).toBe("offered");
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 1 });
  });

  it("an offer claimed with an incomplete profile is refused and stays open; leaving the line moves the others up", async () => {
    const { desk, benefit } = await benefitWithDesk(0);
    const b = await parent();
    const c = await parent();
    const d = await parent();
    for (const p of [b, c, d]) {
      await p.api.waitlist.join({ discountId: benefit.id });
      h.clock.advance(1000);
    }
    await c.api.waitlist.leave({ discountId: benefit.id });
    expect((await card(d.api, benefit.id))?.waitlist).toMatchObject({ status: "waiting", position: 2 });
    await desk.school.benefits.update({
      id: benefit.id,
      values: { teachingStage: "iniciante", ...(await nicheIds(h, "Idiomas")), className: benefit.className, classPeriod: "tarde", discountScope: "all_except_own", monthlyFee: 500, discountPercentage: 20, discountValidity: "first_3_months", numberOfStudents: 1 },
    });
    expect((await place(b.id, benefit.id))?.status).toBe("offered");
    await h.db.update(schema.profiles).set({ enrollmentProofSubmitted: false }).where(eq(schema.profiles.userId, b.id));
    await expect(b.api.waitlist.claimOffer({ discountId: benefit.id })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    expect((await place(b.id, benefit.id))?.status).toBe("offered");
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 0, reservado: 0 });
    await h.db.update(schema.profiles).set({ enrollmentProofSubmitted: true }).where(eq(schema.profiles.userId, b.id));
    await b.api.waitlist.claimOffer({ discountId: benefit.id });
    expect(await slotCount(h, benefit.id)).toMatchObject({ remaining: 0, reservado: 1 });
    expect((await place(d.id, benefit.id))?.status).toBe("waiting");
  });

  it("refuses a benefit the parent may not see, and parents with an incomplete profile", async () => {
    const { school, benefit } = await benefitWithDesk(0);
    const paused = await createDiscount(h, school.id, { slots: 0, status: "paused" });
    const p = await parent();
    await expect(p.api.waitlist.join({ discountId: paused.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.unavailableTitle } });
    const incomplete = await eligibleParent(h, { schoolId: mainSchoolId, proofSubmitted: false });
    await expect((await h.caller(incomplete.id)).waitlist.join({ discountId: benefit.id })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    const sameNiche = await eligibleParent(h, { school: { niche: "Idiomas" } });
    await expect((await h.caller(sameNiche.id)).waitlist.join({ discountId: benefit.id })).rejects.toMatchObject({ code: "CONFLICT", toast: { title: m.unavailableTitle } });
  });
});
