import { openDatabase, type DatabaseHandle } from "@elo/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { tcpProxy } from "../support/tcp-proxy";
import { onRealPostgres } from "../support/test-db";

/**
 * PostgreSQL going away while the server runs, for real: the server's pool reaches its own fresh
 * database through a loopback TCP proxy that the test cuts (every connection reset, the port closed,
 * as when PostgreSQL crashes or is stopped) and restores. Requests must answer 503 quickly during the
 * outage and 200 again afterwards, without restarting the server.
 */
const OUTAGE_ANSWER_MS = 4500;
const RECOVERY_MS = 10_000;

describe.skipIf(!onRealPostgres())("database outage while the server runs (real PostgreSQL)", () => {
  let h: Harness;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let proxied: DatabaseHandle;
  let server: Awaited<ReturnType<typeof startServer>>;
  let cookie: string;

  beforeAll(async () => {
    h = await createHarness();
    const direct = new URL((h.dbHandle as DatabaseHandle & { url: string | null }).url!);
    proxy = await tcpProxy(Number(direct.port || 5432), direct.hostname);
    direct.port = String(proxy.port);
    proxied = await openDatabase({ url: direct.toString(), poolMax: 5 });
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: h.config.DATA_DIR, LOG_LEVEL: "silent", PUBLIC_URL: TEST_ORIGIN, DEMO: "0", PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0" });
    server = await startServer(config, { clock: h.clock, dbHandle: proxied });
    cookie = await sessionCookie(h, (await createUser(h)).id);
  });

  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await server?.close();
    await proxied?.close().catch(() => {});
    await proxy?.close();
    await h?.close();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const started = Date.now();
    const res = await fetch(`${server.url}${path}`, { headers, signal: AbortSignal.timeout(8000) }).catch((e) => ({ status: 0, text: async () => `${path}: ${e}` }));
    const body = await res.text();
    if (process.env.DEBUG_OUTAGE) console.log(path, res.status, Date.now() - started);
    return { status: res.status, ms: Date.now() - started, body };
  };
  /** An anonymous query, a signed-in query (the session is read from the database first) and /healthz. */
  const probes = () => Promise.all([get("/healthz"), get("/trpc/reference.states"), get("/trpc/auth.me", { cookie }), get("/trpc/profile.get", { cookie })]);

  it("answers 503 within 4.5 s while PostgreSQL is unreachable and 200 again once it is back, with no restart (x3)", async () => {
    for (let round = 0; round < 3; round++) {
      for (const p of await probes()) expect(p.status, `before, round ${round}: ${p.body}`).toBe(200);

      await proxy.cut();
      const during = await probes();
      for (const p of during) {
        expect(p.status, `during, round ${round}: ${p.body}`).toBe(503);
        expect(p.ms).toBeLessThan(OUTAGE_ANSWER_MS);
      }
      const health = JSON.parse((await get("/healthz")).body);
      expect(health).toEqual({ status: "unavailable", database: "down" });
      // Still down a moment later: the answer does not depend on which pooled connection is tried.
      for (const p of await probes()) expect(p.status).toBe(503);

      await proxy.restore();
      const back = Date.now();
      let recovered = false;
      while (!recovered && Date.now() - back < RECOVERY_MS) {
        const ps = await probes();
        recovered = ps.every((p) => p.status === 200);
        if (!recovered) await new Promise((r) => setTimeout(r, 100));
      }
      expect(recovered, `round ${round}: recovered within ${RECOVERY_MS} ms`).toBe(true);
      const me = JSON.parse((await get("/trpc/auth.me", { cookie })).body);
      expect(me.result.data.json).not.toBeNull();
    }
  }, 120_000);
});

it.skipIf(onRealPostgres())("database outage tests need real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
