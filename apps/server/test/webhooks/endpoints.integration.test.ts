import { schema } from "@elo/db";
import { WEBHOOK_MAX_ENDPOINTS, webhookMessages as m } from "@elo/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfferingSchool } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function desk() {
  const school = await createOfferingSchool(h);
  const staff = await createStaff(h, school.id);
  return { school, staff, api: await h.caller(staff.id) };
}

describe("school.webhooks: endpoints of one's own school only", () => {
  it("adds, edits, pauses, resumes and deletes; the secret is answered once", async () => {
    const { api } = await desk();
    const created = await api.school.webhooks.create({ url: "http://localhost:4000/hook", events: ["voucher.used", "voucher.used"], description: " ERP " });
    expect(created).toMatchObject({ url: "http://localhost:4000/hook", events: ["voucher.used"], description: "ERP", status: "active", secret: expect.stringMatching(/^whsec_/) });
    const listed = await api.school.webhooks.list();
    expect(listed).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    expect(await api.school.webhooks.update({ id: created.id, events: ["voucher.reserved", "benefit.sold_out"] })).toMatchObject({ events: ["voucher.reserved", "benefit.sold_out"] });
    expect(await api.school.webhooks.pause({ id: created.id })).toMatchObject({ status: "paused", pausedReason: "manual" });
    expect(await api.school.webhooks.resume({ id: created.id })).toMatchObject({ status: "active", pausedReason: null });
    expect(await api.school.webhooks.delete({ id: created.id })).toEqual({ id: created.id });
    expect(await api.school.webhooks.list()).toEqual([]);
  });

  it("refuses bad input with Portuguese messages and a sixth endpoint, even sent at once", async () => {
    const { api } = await desk();
    await expect(api.school.webhooks.create({ url: "not a url", events: ["voucher.used"] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.urlInvalid) });
    await expect(api.school.webhooks.create({ url: "http://localhost/x", events: [] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.eventsRequired) });
    await expect(api.school.webhooks.create({ url: "http://localhost/x", events: ["voucher.sold" as never] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(m.eventUnknown) });
    await expect(api.school.webhooks.create({ url: "http://erp.escola.com.br/x", events: ["voucher.used"] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: m.urlHttps });
    const burst = await Promise.allSettled(Array.from({ length: WEBHOOK_MAX_ENDPOINTS + 3 }, (_, i) => api.school.webhooks.create({ url: `http://localhost/${i}`, events: ["voucher.used"] })));
    expect(burst.filter((r) => r.status === "fulfilled")).toHaveLength(WEBHOOK_MAX_ENDPOINTS);
    for (const r of burst.filter((r) => r.status === "rejected")) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT", message: m.tooMany });
  });

  it("another school's staff can neither see nor touch an endpoint, its log or its events (ids guessed)", async () => {
    const a = await desk();
    const b = await desk();
    const ep = await a.api.school.webhooks.create({ url: "http://localhost/a", events: ["voucher.used"] });
    const { eventId } = await a.api.school.webhooks.test({ id: ep.id });
    const bEp = await b.api.school.webhooks.create({ url: "http://localhost/b", events: ["voucher.used"] });
    expect(await b.api.school.webhooks.list()).toEqual([expect.objectContaining({ id: bEp.id })]);
    const notFound = { code: "NOT_FOUND" };
    const id = ep.id;
    await expect(b.api.school.webhooks.update({ id, url: "http://localhost/roubado" })).rejects.toMatchObject(notFound);
    await expect(b.api.school.webhooks.pause({ id })).rejects.toMatchObject(notFound);
    await expect(b.api.school.webhooks.resume({ id })).rejects.toMatchObject(notFound);
    await expect(b.api.school.webhooks.rotateSecret({ id })).rejects.toMatchObject(notFound);
    await expect(b.api.school.webhooks.deliveries({ id })).rejects.toMatchObject(notFound);
    await expect(b.api.school.webhooks.test({ id })).rejects.toMatchObject(notFound);
    await expect(b.api.school.webhooks.resend({ id, eventId })).rejects.toMatchObject(notFound);
    await expect(b.api.school.webhooks.delete({ id })).rejects.toMatchObject(notFound);
    // Their own endpoint cannot pull the other school's event either.
    await expect(b.api.school.webhooks.resend({ id: bEp.id, eventId })).rejects.toMatchObject({ code: "NOT_FOUND", message: m.eventNotFound });
    const [row] = await h.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, id));
    expect(row).toMatchObject({ url: "http://localhost/a", status: "active", previousSecret: null });
    expect(await h.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, bEp.id))).toEqual([]);
  });

  it("is refused to parents, pending staff and visitors", async () => {
    const school = await createOfferingSchool(h);
    const pending = await createStaff(h, school.id, "pending");
    const parent = await createUser(h, { profileType: "parent" });
    for (const who of [pending.id, parent.id, null]) {
      await expect((await h.caller(who)).school.webhooks.list()).rejects.toMatchObject({ code: who ? "FORBIDDEN" : "UNAUTHORIZED" });
    }
  });
});
