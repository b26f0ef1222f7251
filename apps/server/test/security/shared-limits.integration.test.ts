import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/http/rate-limit";
import { createApiToken } from "../support/factories/apiTokens";
import { createUser, uniqueEmail } from "../support/factories/users";
import { createHarness, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { capturedLogger, MACHINE_REDIS_URL, NO_REDIS, redisAnswers, startOwnRedis, uniqueKeyPrefix, type OwnRedis } from "../support/redis";
import { freePort } from "../support/child-server";

/**
 * Issue 16, point 2: with REDIS_URL every per-IP and per-token limit counts across processes. Two
 * apps in this process stand for two server processes (each its own Redis connection, its own
 * in-memory fallback); each test has its own key prefix. When Redis goes away the apps go on
 * answering, each limit counting per process, with one warning; when it is back, they share again.
 */
const machineRedis = await redisAnswers();
if (!machineRedis) console.warn(NO_REDIS);

const LOGIN_MAX = RATE_LIMITS.login.max;
const API_LIMIT = 6;

/** One wrong login from this test's address (a fresh e-mail each time: the per-account lockout stays out of it). */
async function login(server: TestServer) {
  const started = Date.now();
  const res = await fetch(`${server.url}/trpc/auth.login`, {
    method: "POST",
    headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ json: { email: uniqueEmail("limite"), password: "senha-errada" } }),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: Date.now() - started };
}

/** `n` logins alternating between the servers, one after the other; their statuses. */
async function alternate(servers: TestServer[], n: number) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await login(servers[i % servers.length]!)).status);
  return statuses;
}

/** Waits until `count` clients other than the one looking are connected to the Redis at `url` (the apps reconnected). */
async function waitForClients(url: string, count: number) {
  const looking = new Redis(url, { maxRetriesPerRequest: 0 });
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const clients = String(await looking.client("LIST")).split("\n").filter((l) => l.includes("cmd=")).length - 1;
      if (clients >= count) break;
      if (Date.now() > deadline) throw new Error(`only ${clients} clients reconnected to ${url}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The reconnected clients run their ready check (INFO) before they take commands.
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    looking.disconnect();
  }
}

describe.skipIf(!machineRedis)("rate limits shared through Redis (two apps on one Redis)", () => {
  let h: Harness;
  const started: TestServer[] = [];
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    for (const s of started) await s.close();
    await h?.close();
  });

  /** Two apps with RATE_LIMIT on and REDIS_URL at `url`, sharing `prefix`; each logs to its own capture. */
  async function twoApps(url: string, prefix: string, env: Record<string, string> = {}) {
    const logs = [capturedLogger(), capturedLogger()];
    const servers = await Promise.all(logs.map((log) => h.startServer({ RATE_LIMIT: "1", REDIS_URL: url, ...env }, { logger: log.logger, redisKeyPrefix: prefix })));
    started.push(...servers);
    return { a: servers[0]!, b: servers[1]!, logs };
  }

  it(`counts the logins of one address on both apps together: the ${LOGIN_MAX + 1}st is 429 on either`, async () => {
    const { a, b, logs } = await twoApps(MACHINE_REDIS_URL, uniqueKeyPrefix());
    const statuses = await alternate([a, b], LOGIN_MAX);
    expect(statuses).toEqual(Array(LOGIN_MAX).fill(401));
    expect((await login(a)).status).toBe(429);
    expect((await login(b)).status).toBe(429);
    expect(logs.flatMap((l) => l.aboutRedis(40))).toEqual([]);
  });

  it(`counts one API token's calls on both apps together: the ${API_LIMIT + 1}th is 429`, async () => {
    const { a, b } = await twoApps(MACHINE_REDIS_URL, uniqueKeyPrefix(), { API_RATE_LIMIT_PER_MINUTE: String(API_LIMIT) });
    const user = await createUser(h);
    const { token } = await createApiToken(h, user.id);
    const me = (server: TestServer) => fetch(`${server.url}/trpc/auth.me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    const statuses: number[] = [];
    for (let i = 0; i < API_LIMIT; i++) statuses.push(await me(i % 2 ? b : a));
    expect(statuses).toEqual(Array(API_LIMIT).fill(200));
    expect(await me(a)).toBe(429);
    expect(await me(b)).toBe(429);
    // Another token has its own count.
    const other = (await createApiToken(h, user.id)).token;
    expect((await fetch(`${b.url}/trpc/auth.me`, { headers: { authorization: `Bearer ${other}` } })).status).toBe(200);
  });

  describe("when Redis goes away and comes back", () => {
    let redis: OwnRedis;
    beforeAll(async () => {
      redis = await startOwnRedis();
    });
    afterAll(() => redis?.kill());

    it("answers every request quickly, limits per process with one warning each, and shares again once Redis is back", async () => {
      const { a, b, logs } = await twoApps(redis.url, uniqueKeyPrefix());
      // Shared: half the quota spent over both.
      expect(await alternate([a, b], LOGIN_MAX / 2)).toEqual(Array(LOGIN_MAX / 2).fill(401));

      await redis.kill();
      // Per process: A's own count starts again and stops at the limit; no 500, no waiting for Redis.
      const onA = [];
      for (let i = 0; i <= LOGIN_MAX; i++) onA.push(await login(a));
      const onB = await login(b);
      const slowest = Math.max(...onA.map((r) => r.ms), onB.ms);
      console.log(`[shared-limits] Redis down: slowest login answered in ${slowest} ms`);
      expect(onA.map((r) => r.status)).toEqual([...Array(LOGIN_MAX).fill(401), 429]);
      expect(onB.status).toBe(401);
      expect(slowest).toBeLessThan(1500);
      for (const log of logs) expect(log.aboutRedis(40), "one warning per process for the whole outage").toHaveLength(1);

      await redis.restart();
      await waitForClients(redis.url, 2);
      // Shared again (the new Redis is empty): both apps count into one window.
      expect(await alternate([a, b], LOGIN_MAX)).toEqual(Array(LOGIN_MAX).fill(401));
      expect((await login(b)).status).toBe(429);
      expect((await login(a)).status).toBe(429);
      for (const log of logs) {
        expect(log.aboutRedis(40)).toHaveLength(1);
        expect(log.aboutRedis(30), "one line when the shared counting resumes").toHaveLength(1);
      }
    }, 60_000);

    it("starts without a reachable Redis, limits per process, and shares once Redis appears", async () => {
      const port = await freePort();
      const url = `redis://127.0.0.1:${port}`;
      const prefix = uniqueKeyPrefix();
      const log = capturedLogger();
      const startedAt = Date.now();
      const a = await h.startServer({ RATE_LIMIT: "1", REDIS_URL: url }, { logger: log.logger, redisKeyPrefix: prefix });
      started.push(a);
      expect(Date.now() - startedAt).toBeLessThan(3000);
      const statuses = await alternate([a], LOGIN_MAX + 1);
      expect(statuses).toEqual([...Array(LOGIN_MAX).fill(401), 429]);
      expect(log.aboutRedis(40)).toHaveLength(1);

      const late = await startOwnRedis(port);
      try {
        await waitForClients(url, 1);
        const bLog = capturedLogger();
        const b = await h.startServer({ RATE_LIMIT: "1", REDIS_URL: url }, { logger: bLog.logger, redisKeyPrefix: prefix });
        started.push(b);
        expect(await alternate([a, b], LOGIN_MAX)).toEqual(Array(LOGIN_MAX).fill(401));
        expect((await login(a)).status).toBe(429);
        expect((await login(b)).status).toBe(429);
        expect(log.aboutRedis(40)).toHaveLength(1);
        expect(bLog.aboutRedis(40)).toEqual([]);
      } finally {
        for (const s of started.splice(0)) await s.close();
        await late.kill();
      }
    }, 60_000);
  });
});

it.skipIf(machineRedis)("the shared-limit tests need Redis at 127.0.0.1:6379", () => {
  console.warn(NO_REDIS);
  expect(machineRedis).toBe(false);
});
