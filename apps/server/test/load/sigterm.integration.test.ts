import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withSpawnedServer, type ChildServer } from "../support/child-server";
import type { Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";
import { byStatus, ledger, mutate, seedClaimStorm, type Outcome } from "./storm";

/**
 * SIGTERM while a claim storm is running and a live subscription (server-sent events) is open, on
 * the spawned built server: main.ts closes the server gracefully. Requests it had accepted must
 * get their answer, the process must exit 0 by itself (not through its 15 s forced exit) and the
 * ledger must match exactly the answers the parents received.
 */
const CLIENTS = 120;
const SLOTS = 10;
const EXIT_BOUND_MS = 5000;

describe.skipIf(!onRealPostgres())("SIGTERM during a claim storm (real PostgreSQL, spawned built server)", () => {
  let h: Harness;
  let server: ChildServer;
  withSpawnedServer((w) => ({ h, server } = w));

  it(`${CLIENTS} claims in flight and an open SSE stream: answers kept, exit 0 within ${EXIT_BOUND_MS} ms, ledger consistent`, async () => {
    const storm = await seedClaimStorm(h, CLIENTS, SLOTS);

    // A signed-in user's live header: the stream stays open until the server ends it.
    const sse = await fetch(`${server.url}/trpc/profile.changes`, { headers: { cookie: storm.cookies[0]!, accept: "text/event-stream" } });
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toContain("text/event-stream");
    const reader = sse.body!.getReader();
    await reader.read(); // the stream's opening event
    const sseEnded = (async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return Date.now();
    })();

    let signalAt = 0;
    const claims: Promise<Outcome>[] = storm.cookies.map((cookie) =>
      mutate(server.url, "claim.create", { discountId: storm.discountId }, cookie).then((o) => {
        if (!signalAt) {
          // The first answer is in: the rest of the storm is in flight. Stop the server now.
          signalAt = Date.now();
          server.proc.kill("SIGTERM");
        }
        return o;
      }),
    );
    const outcomes = await Promise.all(claims);
    const exit = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
    const counts = byStatus(outcomes);
    const answeredAfterSignal = outcomes.filter((o) => o.at > signalAt && (o.status === 200 || o.status === 409)).length;
    console.log(`[sigterm] ${JSON.stringify({ clients: CLIENTS, slots: SLOTS, counts, answeredAfterSignal, exitMs: exit ? exit.at - signalAt : null, code: exit?.code })}`);

    expect(exit, `did not exit:\n${server.output()}`).not.toBeNull();
    expect({ code: exit!.code, signal: exit!.signal }, server.output()).toEqual({ code: 0, signal: null });
    expect(exit!.at - signalAt).toBeLessThan(EXIT_BOUND_MS);
    expect(await sseEnded).toBeLessThanOrEqual(exit!.at + 1000);

    // The storm really was cut in the middle: requests accepted before the signal were answered after it.
    expect(answeredAfterSignal).toBeGreaterThan(0);
    // Only clean answers: a claim result, or a refusal to start (503 while closing, or no connection).
    for (const o of outcomes) expect([200, 409, 503, 0], o.body).toContain(o.status);

    // Every 200 is a claim in the database and every claim in the database was answered 200: no
    // half-written claim, and none committed behind a parent's back.
    const won = outcomes.flatMap((o, i) => (o.status === 200 ? [storm.parentIds[i]!] : []));
    const rows = await h.db.select({ userId: schema.claimedDiscounts.userId }).from(schema.claimedDiscounts).where(eq(schema.claimedDiscounts.discountId, storm.discountId));
    expect(rows.map((r) => r.userId).sort()).toEqual(won.sort());
    expect(won.length).toBeLessThanOrEqual(SLOTS);
    expect(await ledger(h, storm.discountId)).toEqual({ slotsLeft: SLOTS - won.length, vouchers: won.length, transactions: won.length, claimedRows: won.length });
  }, 120_000);
});

it.skipIf(onRealPostgres())("shutdown tests need real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
