import { schema } from "@elo/db";
import { accessMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { spawnServer, withSpawnedServer, type ChildServer, type SpawnedWorld } from "../support/child-server";
import { TEST_ORIGIN, type Harness } from "../support/harness";
import { rawConnection, rawRequest, type RawAnswer } from "../support/raw-http";
import { onRealPostgres } from "../support/test-db";
import { ledger, seedClaimStorm } from "./storm";

/**
 * SIGTERM while a claim storm is running and a live subscription (server-sent events) is open, on
 * the spawned built server. The storm comes the ways real clients send it: many separate new
 * connections, keep-alive connections reused for a new request, and connections with several
 * requests pipelined. Each request's bytes are written by hand, so the test knows which reached the
 * server before the signal: every one of those must get its HTTP answer (a claim result, never a
 * reset or a 503), the process must exit 0 by itself, and the ledger must match the answers exactly.
 */
const FRESH = 40; // one claim each, on a connection opened for it
const PIPELINED = 8; // connections carrying DEPTH claims written in one go
const DEPTH = 5;
const REUSED = 40; // keep-alive connections that already had an answer, then carry one claim
const LATE = 10; // keep-alive connections whose claim leaves after the signal
const SLOTS = 10;
const EXIT_BOUND_MS = 5000;

interface Sent {
  parent: number;
  group: "fresh" | "pipelined" | "reused" | "late";
  beforeSignal: boolean;
  answer: Promise<RawAnswer | null>;
}

/** The answer a request refused while draining must carry. */
function expectDrainingRefusal(a: RawAnswer) {
  expect(a.status).toBe(503);
  expect(a.headers.connection).toBe("close");
  expect(JSON.parse(a.body).error.message).toBe(accessMessages.serviceUnavailable);
}

/** Waits until the server has logged `text`, at most 10 s. */
async function logged(server: ChildServer, text: string) {
  for (let i = 0; i < 400 && !server.output().includes(text); i++) await new Promise((r) => setTimeout(r, 25));
}

/** A claim whose headers and first half of the body are sent now; `rest` is what completes it. */
function halfClaim(url: string, cookie: string, discountId: string) {
  const body = JSON.stringify({ json: { discountId } });
  const whole = rawRequest(url, "POST", "/trpc/claim.create", { "content-type": "application/json", origin: TEST_ORIGIN, cookie }, body);
  const cut = whole.length - Math.ceil(body.length / 2);
  return { head: whole.slice(0, cut), rest: whole.slice(cut) };
}

const exitWithin = (server: ChildServer, ms: number) => Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

describe.skipIf(!onRealPostgres())("SIGTERM during a claim storm (real PostgreSQL, spawned built server)", () => {
  let h: Harness;
  let server: ChildServer;
  let bundle: SpawnedWorld["bundle"];
  withSpawnedServer((w) => ({ h, server, bundle } = w));

  it(`claims on new, reused and pipelined connections and an open SSE stream: every request received before SIGTERM answered, exit 0 within ${EXIT_BOUND_MS} ms, ledger consistent`, async () => {
    const storm = await seedClaimStorm(h, FRESH + PIPELINED * DEPTH + REUSED + LATE, SLOTS);
    const claim = (parent: number) =>
      rawRequest(server.url, "POST", "/trpc/claim.create", { "content-type": "application/json", origin: TEST_ORIGIN, cookie: storm.cookies[parent]! }, JSON.stringify({ json: { discountId: storm.discountId } }));

    // A signed-in user's live header: the stream stays open until the server ends it.
    const sse = await fetch(`${server.url}/trpc/profile.changes`, { headers: { cookie: storm.cookies[0]!, accept: "text/event-stream" } });
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toContain("text/event-stream");
    const reader = sse.body!.getReader();
    await reader.read(); // the stream's opening event
    const sseEnded = (async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return Date.now();
    })();

    const open = (n: number) => Promise.all(Array.from({ length: n }, () => rawConnection(server.url)));
    const [pipelined, kept] = await Promise.all([open(PIPELINED), open(REUSED + LATE)]);
    // Kept-alive connections: each has had one answer and sits idle, as a browser's or a proxy's would.
    for (const c of kept) expect((await (await c.send([rawRequest(server.url, "GET", "/healthz")]))[0])?.status).toBe(200);
    const reused = kept.slice(0, REUSED);
    const late = kept.slice(REUSED);

    let next = 0;
    const sent: Sent[] = [];
    async function send(conn: Awaited<ReturnType<typeof rawConnection>>, count: number, group: Sent["group"]) {
      const parents = Array.from({ length: count }, () => next++);
      const answers = await conn.send(parents.map(claim));
      parents.forEach((parent, i) => sent.push({ parent, group, beforeSignal: group !== "late", answer: answers[i]! }));
    }
    // The storm starts on the pipelined connections; once the first answer is out it is in flight.
    await Promise.all(pipelined.map((c) => send(c, DEPTH, "pipelined")));
    await Promise.race(sent.map((s) => s.answer));
    // More claims arrive: on new connections (connected and written just now) and on idle kept-alive
    // ones. Every byte is handed to the kernel before the signal goes out.
    const fresh = await open(FRESH);
    await Promise.all([...fresh.map((c) => send(c, 1, "fresh")), ...reused.map((c) => send(c, 1, "reused"))]);
    const signalAt = Date.now();
    server.proc.kill("SIGTERM");
    await Promise.all(late.map((c) => send(c, 1, "late")));

    const outcomes = await Promise.all(sent.map(async (s) => ({ ...s, answer: await s.answer })));
    const exit = await exitWithin(server, 20_000);
    for (const c of [...fresh, ...pipelined, ...kept]) c.close();
    const tally = (list: typeof outcomes) => {
      const t: Record<string, number> = {};
      for (const o of list) t[o.answer?.status ?? "reset"] = (t[o.answer?.status ?? "reset"] ?? 0) + 1;
      return t;
    };
    const before = outcomes.filter((o) => o.beforeSignal);
    const after = outcomes.filter((o) => !o.beforeSignal);
    const groups = Object.fromEntries((["fresh", "pipelined", "reused", "late"] as const).map((g) => [g, tally(outcomes.filter((o) => o.group === g))]));
    console.log(`[sigterm] ${JSON.stringify({ beforeSignal: before.length, afterSignal: after.length, groups, exitMs: exit ? exit.at - signalAt : null, code: exit?.code })}`);

    expect(exit, `did not exit:\n${server.output()}`).not.toBeNull();
    expect({ code: exit!.code, signal: exit!.signal }, server.output()).toEqual({ code: 0, signal: null });
    expect(exit!.at - signalAt).toBeLessThan(EXIT_BOUND_MS);
    expect(await sseEnded).toBeLessThanOrEqual(exit!.at + 1000);

    // Received before the signal: the claim ran and its result came back (no reset, no 503).
    expect(before.filter((o) => o.answer?.status !== 200 && o.answer?.status !== 409).map((o) => o.answer ?? "reset")).toEqual([]);
    // After it: a claim result, or refused cleanly (503 in Portuguese, Connection: close), or the
    // idle connection closed before the bytes were read.
    for (const o of after) if (o.answer?.status === 503) expectDrainingRefusal(o.answer);
    for (const o of after) if (o.answer) expect([200, 409, 503], o.answer.body).toContain(o.answer.status);

    // Every 200 is a claim in the database and every claim in the database was answered 200: no
    // half-written claim, and none committed behind a parent's back.
    const won = outcomes.flatMap((o) => (o.answer?.status === 200 ? [storm.parentIds[o.parent]!] : []));
    const rows = await h.db.select({ userId: schema.claimedDiscounts.userId }).from(schema.claimedDiscounts).where(eq(schema.claimedDiscounts.discountId, storm.discountId));
    expect(rows.map((r) => r.userId).sort()).toEqual(won.sort());
    expect(won.length).toBe(SLOTS); // more claims than slots were received before the signal: all slots went
    expect(await ledger(h, storm.discountId)).toEqual({ slotsLeft: 0, vouchers: SLOTS, transactions: SLOTS, claimedRows: SLOTS });
  }, 120_000);

  it("a request half received at SIGTERM is finished and answered; a health check sent behind it while draining answers 503", async () => {
    const drained = await spawnServer(bundle.bundle, (h.dbHandle as { url: string }).url, { LOG_LEVEL: "info" });
    try {
      const storm = await seedClaimStorm(h, 1, 1);
      const claim = halfClaim(drained.url, storm.cookies[0]!, storm.discountId);
      const conn = await rawConnection(drained.url);
      // The headers and half the body arrive before the signal; the rest and a health check once
      // the server refuses new requests.
      const [claimAnswer] = await conn.send([claim.head]);
      drained.proc.kill("SIGTERM");
      await logged(drained, "refusing new ones");
      const [health] = await conn.send([claim.rest + rawRequest(drained.url, "GET", "/healthz")]);

      expect((await claimAnswer!)?.status, drained.output()).toBe(200);
      const healthAnswer = await health!;
      expect(healthAnswer, "the health check behind the claim was lost").not.toBeNull();
      expectDrainingRefusal(healthAnswer!);
      expect((await exitWithin(drained, 20_000))?.code, drained.output()).toBe(0);
      expect(await ledger(h, storm.discountId)).toEqual({ slotsLeft: 0, vouchers: 1, transactions: 1, claimedRows: 1 });
    } finally {
      await drained.dispose();
    }
  }, 60_000);

  it("a request that never completes is cut at SHUTDOWN_GRACE_MS: exit code 1 once the grace period is over", async () => {
    const GRACE_MS = 1000;
    const stuck = await spawnServer(bundle.bundle, (h.dbHandle as { url: string }).url, { SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    try {
      const storm = await seedClaimStorm(h, 1, 1);
      const conn = await rawConnection(stuck.url);
      const [answer] = await conn.send([halfClaim(stuck.url, storm.cookies[0]!, storm.discountId).head]);
      const signalAt = Date.now();
      stuck.proc.kill("SIGTERM");
      const exit = await exitWithin(stuck, 20_000);
      expect(exit?.code, stuck.output()).toBe(1);
      expect(exit!.at - signalAt).toBeGreaterThanOrEqual(GRACE_MS);
      expect(exit!.at - signalAt).toBeLessThan(GRACE_MS + 4000);
      expect(stuck.output()).toContain("grace period over");
      expect(await answer!).toBeNull(); // never completed, never answered: nothing committed
      expect(await ledger(h, storm.discountId)).toEqual({ slotsLeft: 1, vouchers: 0, transactions: 0, claimedRows: 0 });
    } finally {
      await stuck.dispose();
    }
  }, 60_000);
});

it.skipIf(onRealPostgres())("shutdown tests need real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
