import { schema } from "@elo/db";
import { verifyWebhook } from "@elo/client";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mutate } from "../load/storm";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { insertVoucher } from "../support/factories/vouchers";
import { spawnServer, withSpawnedServer, type ChildServer, type SpawnedWorld } from "../support/child-server";
import type { Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

/** Issue 29 on real PostgreSQL with the built server: two processes deliver each event once per endpoint; a kill -9 right after a commit loses nothing. */
describe.skipIf(!onRealPostgres())("webhook delivery across server processes (real PostgreSQL, spawned built servers)", () => {
  let h: Harness;
  let world: SpawnedWorld;
  let receiver: Receiver;
  const extra: ChildServer[] = [];
  withSpawnedServer((w) => ({ h } = (world = w)));
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of extra) await s.dispose();
    await receiver.close();
  });

  const waitFor = async (done: () => boolean | Promise<boolean>, ms = 60_000) => {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error("timed out");
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it("two processes deliver each of 120 events exactly once to each of 3 endpoints", async () => {
    extra.push(await spawnServer(world.bundle.bundle, (h.dbHandle as { url: string }).url));
    const school = await createOfferingSchool(h);
    const desk = await h.caller((await createStaff(h, school.id)).id);
    const endpoints = await Promise.all(["/a", "/b", "/c"].map((p) => desk.school.webhooks.create({ url: receiver.url(`/${school.id}${p}`), events: ["voucher.reserved"] })));
    const benefit = await createDiscount(h, school.id, { slots: 500 });
    const parents = await Promise.all(Array.from({ length: 120 }, () => eligibleParent(h)));
    for (const p of parents) await insertVoucher(h, benefit, p.id);

    const mine = () => receiver.received.filter((r) => r.path.startsWith(`/${school.id}/`));
    await waitFor(() => mine().length >= 360);
    await new Promise((r) => setTimeout(r, 1500)); // a duplicate would arrive now
    const seen = new Map<string, number>();
    for (const r of mine()) {
      const key = `${r.path} ${String(r.headers["webhook-id"])}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect(seen.size).toBe(360);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    for (const ep of endpoints) {
      const rows = await h.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, ep.id));
      expect(rows.filter((d) => d.status === "delivered" && d.attempts === 1)).toHaveLength(120);
    }
  }, 120_000);

  it("kill -9 right after a commit: the event is delivered by the next process", async () => {
    // This process only looks once an hour: the change it commits is still undelivered when it dies.
    const lazy = await spawnServer(world.bundle.bundle, (h.dbHandle as { url: string }).url, { WEBHOOK_POLL_MS: "3600000" });
    extra.push(lazy);
    await new Promise((r) => setTimeout(r, 500)); // its first round (at start) has run
    const school = await createOfferingSchool(h);
    const staff = await createStaff(h, school.id);
    const desk = await h.caller(staff.id);
    // Every other process is stopped: only the lazy one runs.
    for (const s of [world.server, ...extra.filter((s) => s !== lazy)]) await s.dispose();
    const endpoint = await desk.school.webhooks.create({ url: receiver.url(`/${school.id}/kill`), events: ["voucher.used"] });
    const voucher = await insertVoucher(h, await createDiscount(h, school.id), (await eligibleParent(h)).id);
    const answer = await mutate(lazy.url, "school.vouchers.confirm", { code: voucher.voucherCode }, await sessionCookie(h, staff.id));
    lazy.proc.kill("SIGKILL");
    expect(answer.status).toBe(200);
    expect((await lazy.exited).signal).toBe("SIGKILL");
    const mine = () => receiver.received.filter((r) => r.path === `/${school.id}/kill`);
    expect(mine()).toHaveLength(0);

    extra.push(await spawnServer(world.bundle.bundle, (h.dbHandle as { url: string }).url));
    await waitFor(() => mine().length >= 1);
    const event = verifyWebhook(endpoint.secret, mine()[0]!.headers as Record<string, string>, mine()[0]!.body);
    expect(event).toMatchObject({ type: "voucher.used", data: { voucherCode: voucher.voucherCode, status: "utilizado" } });
  }, 120_000);
});
