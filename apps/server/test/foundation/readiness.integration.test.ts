import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DatabaseHandle } from "@elo/db";
import { accessMessages } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { tcpProxy } from "../support/tcp-proxy";
import { onRealPostgres } from "../support/test-db";

/**
 * /livez and /readyz through a listening server whose PostgreSQL goes away (a loopback TCP proxy the
 * test cuts) and comes back (decision 181): the replica stops being ready, yet it still answers,
 * and what a user meets is the app's own answer in Portuguese, never a connection refused.
 */
const RECOVERY_MS = 10_000;

describe.skipIf(!onRealPostgres())("/livez and /readyz with PostgreSQL stopped and started again", () => {
  let h: Harness;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let proxied: DatabaseHandle;
  let server: Awaited<ReturnType<typeof startServer>>;
  let webDist: string;

  beforeAll(async () => {
    h = await createHarness();
    const direct = new URL((h.dbHandle as DatabaseHandle & { url: string | null }).url!);
    proxy = await tcpProxy(Number(direct.port || 5432), direct.hostname);
    direct.port = String(proxy.port);
    proxied = await openDatabase({ url: direct.toString(), poolMax: 3 });
    // A stand-in for the built web app: pages are served from the disk, without the database.
    webDist = mkdtempSync(path.join(tmpdir(), "elo-web-"));
    mkdirSync(path.join(webDist, "assets"));
    writeFileSync(path.join(webDist, "index.html"), '<!doctype html><html lang="pt-BR"><title>Elo Escolar</title></html>');
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: h.config.DATA_DIR, LOG_LEVEL: "silent", PUBLIC_URL: TEST_ORIGIN, DEMO: "0", PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0", JOBS_INTERVAL_MS: "0", WEB_DIST: webDist });
    server = await startServer(config, { clock: h.clock, dbHandle: proxied });
  });

  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await server?.close();
    await proxied?.close().catch(() => {});
    await proxy?.close();
    await h?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = async (p: string) => {
    const res = await fetch(`${server.url}${p}`, { signal: AbortSignal.timeout(8000) });
    const body = await res.text();
    return { status: res.status, body, type: res.headers.get("content-type") ?? "" };
  };

  it("is alive and ready with the database up, alive and not ready while it is down, ready again once it is back (x2)", async () => {
    for (let round = 0; round < 2; round++) {
      expect((await get("/livez")).status).toBe(200);
      const ready = await get("/readyz");
      expect(ready.status, ready.body).toBe(200);
      expect(JSON.parse(ready.body)).toMatchObject({ status: "ready", draining: false, database: "up", redis: "off", storage: "disk" });

      await proxy.cut();
      const live = await get("/livez");
      expect(live.status).toBe(200);
      expect(JSON.parse(live.body)).toEqual({ status: "alive" });
      const notReady = await get("/readyz");
      expect(notReady.status).toBe(503);
      expect(JSON.parse(notReady.body)).toMatchObject({ status: "not-ready", database: "down" });
      // /healthz as it always was.
      expect(JSON.parse((await get("/healthz")).body)).toEqual({ status: "unavailable", database: "down" });
      // What the user meets: the page itself, and the API's 503 in Portuguese for the web app's toast.
      const page = await get("/login");
      expect(page.status).toBe(200);
      expect(page.body).toContain("Elo Escolar");
      // A public page needs the database: the app's own 503 page, in Portuguese, not a 500.
      const publicPage = await get("/escolas");
      expect(publicPage.status).toBe(503);
      expect(publicPage.body).toContain(accessMessages.serviceUnavailable);
      const api = await get("/trpc/reference.states");
      expect(api.status).toBe(503);
      expect(api.type).toContain("application/json");
      expect(api.body).toContain(accessMessages.serviceUnavailable);

      await proxy.restore();
      const back = Date.now();
      let status = 0;
      while (status !== 200 && Date.now() - back < RECOVERY_MS) {
        status = (await get("/readyz")).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status, `round ${round}: ready again within ${RECOVERY_MS} ms`).toBe(200);
      expect((await get("/trpc/reference.states")).status).toBe(200);
    }
  }, 90_000);
});

it.skipIf(onRealPostgres())("readiness tests need real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});

describe("/readyz while the server drains", () => {
  it("answers 503 without asking the database once a graceful close has begun; /livez still answers", async () => {
    const { default: Fastify } = await import("fastify");
    const { registerHealthRoutes } = await import("../../src/http/health");
    const h = await createHarness();
    let draining = false;
    let pings = 0;
    const app = Fastify();
    registerHealthRoutes(app, { ...h.deps, dbHandle: { ...h.dbHandle, ping: (ms?: number) => (pings++, h.dbHandle.ping(ms)) } }, { draining: () => draining });
    expect((await app.inject({ url: "/readyz" })).statusCode).toBe(200);
    draining = true;
    const res = await app.inject({ url: "/readyz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: "not-ready", draining: true, database: "unchecked" });
    expect(pings).toBe(1);
    expect((await app.inject({ url: "/livez" })).statusCode).toBe(200);
    await app.close();
    await h.close();
  });
});
