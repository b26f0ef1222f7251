import { openDatabase, type DatabaseHandle } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { eventually } from "../support/eventually";
import { createUser } from "../support/factories/users";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";

type Server = Awaited<ReturnType<typeof startServer>>;

/**
 * Scale-out: two server processes' worth of state (each its own app, pool and in-memory state) on
 * one PostgreSQL, reached by a round-robin client. Sessions and the login lockout live in the
 * database, so either server honours what the other did. The live profile update reaching a tab
 * served by the other server is apps/server/test/profile/live-updates.integration.test.ts.
 * PGlite has a single connection and cannot host a second server: real PostgreSQL only.
 */
describe.skipIf(!onRealPostgres())("two servers behind a round-robin client", () => {
  let h: Harness;
  let a: Server;
  let b: Server;
  let secondPool: DatabaseHandle;
  let turn = 0;
  const next = () => (turn++ % 2 === 0 ? a.url : b.url);

  beforeAll(async () => {
    h = await createHarness();
    a = await h.startServer();
    const url = (h.dbHandle as DatabaseHandle & { url: string | null }).url!;
    secondPool = await openDatabase({ url, poolMax: 5 });
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: h.config.DATA_DIR, LOG_LEVEL: "silent", PUBLIC_URL: TEST_ORIGIN, DEMO: "0", PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0" });
    b = await startServer(config, { clock: h.clock, dbHandle: secondPool });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await secondPool?.close();
    await h?.close();
  });

  const login = (base: string, email: string, password: string) =>
    fetch(`${base}/trpc/auth.login`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ json: { email, password } }),
    });
  const me = async (base: string, cookie: string) => {
    const res = await fetch(`${base}/trpc/auth.me`, { headers: { cookie } });
    return ((await res.json()) as { result: { data: { json: { email: string } | null } } }).result.data.json;
  };

  it("a session created on one server is valid on the other, and a logout on either ends it on both", async () => {
    const user = await createUser(h);
    const first = next();
    const res = await login(first, user.email, user.password);
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect(cookie).toMatch(/elo_session=/);

    const other = next();
    expect(other).not.toBe(first);
    expect((await me(other, cookie))?.email).toBe(user.email);
    expect((await me(first, cookie))?.email).toBe(user.email);

    const out = await fetch(`${other}/trpc/auth.logout`, { method: "POST", headers: { origin: TEST_ORIGIN, cookie, "content-type": "application/json" }, body: "{}" });
    expect(out.status).toBe(200);
    expect(await me(other, cookie)).toBeNull();
    // The other process kept the session (decision 220) and drops it when the sign-out's
    // notification arrives, milliseconds after the commit.
    await eventually(async () => expect(await me(first, cookie)).toBeNull(), 2000);
  });

  it("failed logins on both servers add up to one lockout", async () => {
    const user = await createUser(h);
    for (let i = 0; i < LIMITS.loginMaxFailures; i++) {
      const res = await login(next(), user.email, "senha-errada");
      expect(res.status).toBe(i < LIMITS.loginMaxFailures - 1 ? 401 : 429);
    }
    // The right password, on each server: both refuse while the block lasts.
    for (const base of [a.url, b.url]) {
      const res = await login(base, user.email, user.password);
      expect(res.status).toBe(429);
    }
  });

  it("parallel wrong attempts spread over both servers are all counted", async () => {
    const user = await createUser(h);
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => login(i % 2 ? a.url : b.url, user.email, `errada-${i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMITS.loginMaxFailures - 1);
    const res = await login(next(), user.email, user.password);
    expect(res.status).toBe(429);
  });
});
