import { authMessages, LIMITS } from "@elo/shared";
import { describe, expect, it } from "vitest";
import { createUser } from "../support/factories/users";
import { TEST_ORIGIN, withServer, type Harness, type TestServer } from "../support/harness";
import { rawBurst } from "../support/raw-http";
import { onRealPostgres } from "../support/test-db";

/**
 * The per-account lockout under a parallel burst (issue 15, point 3): at most LIMITS.loginMaxFailures
 * password checks may run for an account inside a lockout window, whatever the order in which the
 * attempts arrive, so the right password sent among many wrong ones is only accepted when it is
 * one of the first five. Real PostgreSQL only (PGlite has one connection: nothing runs in parallel).
 * The per-IP limit is off (RATE_LIMIT=0): it would hide the lockout behind 429s of its own.
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const WRONG = 60;
const ROUNDS = 3;

type Answer = { status: number; code?: string; title?: string };

async function burst(email: string, rightPassword: string, rightAt: number): Promise<Answer[]> {
  const login = (password: string) => ({
    method: "POST",
    target: "/trpc/auth.login",
    headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ json: { email, password } }),
  });
  const requests = Array.from({ length: WRONG }, (_, i) => login(`errada-${i}-Xy9!`));
  requests.splice(rightAt, 0, login(rightPassword));
  const answers = await rawBurst(server.url, requests);
  return answers.map((a) => {
    const body = JSON.parse(a.body) as { error?: { json: { data: { code: string; toast: { title: string } } } } };
    return { status: a.status, code: body.error?.json.data.code, title: body.error?.json.data.toast.title };
  });
}

describe.skipIf(!onRealPostgres())("lockout under a parallel burst of 60 wrong passwords and the right one", () => {
  for (let round = 0; round < ROUNDS; round++) {
    // The right password first, in the middle, and last of the burst.
    const rightAt = [0, WRONG / 2, WRONG][round]!;
    it(`round ${round + 1}: the right password at position ${rightAt + 1} of ${WRONG + 1}`, async () => {
      const user = await createUser(h);
      const answers = await burst(user.email, user.password, rightAt);
      const count = (status: number) => answers.filter((a) => a.status === status).length;
      console.log(JSON.stringify({ lockoutBurst: { round: round + 1, rightAt: rightAt + 1, ok: count(200), wrong: count(401), blocked: count(429), other: answers.length - count(200) - count(401) - count(429) } }));

      // Every answer is a success, a wrong password, or the spec's block.
      expect(answers.filter((a) => ![200, 401, 429].includes(a.status))).toEqual([]);
      expect(answers.filter((a) => a.status === 429).every((a) => a.code === "TOO_MANY_REQUESTS" && a.title === authMessages.blockedTitle)).toBe(true);
      // Wrong-password checks: every 401 is one; never more than five. The right password's check
      // counts in the window too, but once it succeeds the window forgets the checks already finished
      // and keeps those still running (decision 105): when it ends before the burst has reserved its
      // five, the wrong ones fill the rest of a window that starts again, so a success may come with
      // five wrong checks (seen on a loaded CI machine), never more.
      expect(count(401)).toBeLessThanOrEqual(LIMITS.loginMaxFailures);
      expect(count(200)).toBeLessThanOrEqual(1);
      // The window was spent: the burst ends blocked for everyone who came late.
      expect(count(429)).toBeGreaterThanOrEqual(WRONG + 1 - LIMITS.loginMaxFailures - count(200));
    });
  }
});

describe.runIf(!onRealPostgres())("lockout burst", () => {
  it("needs real PostgreSQL (set TEST_DATABASE_URL)", () => {});
});
