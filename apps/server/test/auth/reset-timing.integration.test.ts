import { schema } from "@elo/db";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser, uniqueEmail } from "../support/factories/users";
import { withSpawnedServer, type ChildServer } from "../support/child-server";
import { TEST_ORIGIN, type Harness } from "../support/harness";
import { rawExchange } from "../support/raw-http";
import { onRealPostgres } from "../support/test-db";

/**
 * Account enumeration by timing (issue 15, point 7): auth.requestPasswordReset must answer a known
 * and an unknown address in the same time, through the server. The machine is shared, so calls go
 * in pairs (one known, one unknown, in a random order) and the median of the pairs' differences is
 * compared: a slow spell of the machine slows both calls of a pair alike. The server is the built
 * one in its own process (real PostgreSQL): in the test's process, work started after an answer
 * would delay the test's own reading of it, which no remote client sees.
 */
let h: Harness;
let server: ChildServer;

const PAIRS = 250;
/** After every call, so that each measured call follows the same idle time whatever came before. */
const PAUSE_MS = 10;
/** The median difference may be this much (or this share of the unknown address's median): noise, not a signal. */
const TOLERANCE_MS = 1.5;
const TOLERANCE_SHARE = 0.25;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** From the request sent to its answer read: what a client far away can measure. */
async function timedRequest(email: string) {
  const res = await rawExchange(server.url, {
    method: "POST",
    target: "/trpc/auth.requestPasswordReset",
    headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ json: { email } }),
  });
  expect([res.status, res.body]).toEqual([200, JSON.stringify({ result: { data: { json: { ok: true } } } })]);
  return res.ms;
}

describe.skipIf(!onRealPostgres())("auth.requestPasswordReset timing (spawned built server)", () => {
  withSpawnedServer((w) => ({ h, server } = w));

  it("answers a known and an unknown e-mail in the same time", async () => {
    const user = await createUser(h);
    const mailsTo = async (email: string) => (await h.db.select({ n: count() }).from(schema.emailOutbox).where(eq(schema.emailOutbox.to, email)))[0]!.n;
    // Both kinds run the same steps around the timed call: count the address's e-mails, ask, pause,
    // wait until the count is what it should be (one more for the known address: the e-mail is
    // still sent, and waiting for it keeps its work out of the next measurement).
    const timed = async (email: string, expected: (before: number) => number) => {
      const before = await mailsTo(email);
      const ms = await timedRequest(email);
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      await expect.poll(() => mailsTo(email), { timeout: 10_000, interval: 5 }).toBe(expected(before));
      return ms;
    };
    const known = () => timed(user.email, (n) => n + 1);
    const unknown = () => timed(uniqueEmail("ninguem"), () => 0);
    // Warm-up: connections, prepared statements, JIT.
    for (let i = 0; i < 3; i++) await known(), await unknown();

    const times = { known: [] as number[], unknown: [] as number[], differences: [] as number[] };
    for (let i = 0; i < PAIRS; i++) {
      // Properties are evaluated in the order written: a random order of the two calls.
      const pair = Math.random() < 0.5 ? { known: await known(), unknown: await unknown() } : { unknown: await unknown(), known: await known() };
      times.known.push(pair.known);
      times.unknown.push(pair.unknown);
      times.differences.push(pair.known - pair.unknown);
    }

    const figures = { pairs: PAIRS, knownMedianMs: median(times.known), unknownMedianMs: median(times.unknown), medianDifferenceMs: median(times.differences) };
    console.log(JSON.stringify({ resetTiming: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, +v.toFixed(2)])) }));
    const allowed = Math.max(TOLERANCE_MS, TOLERANCE_SHARE * figures.unknownMedianMs);
    expect(Math.abs(figures.medianDifferenceMs), JSON.stringify(figures)).toBeLessThanOrEqual(allowed);
  });
});

describe.runIf(!onRealPostgres())("auth.requestPasswordReset timing", () => {
  it("needs real PostgreSQL (set TEST_DATABASE_URL)", () => {});
});
