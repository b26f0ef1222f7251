import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase, type DatabaseHandle } from "@elo/db";
import { accessMessages } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { freePort } from "../support/child-server";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { tcpProxy } from "../support/tcp-proxy";
import { onRealPostgres } from "../support/test-db";

/**
 * The repository's deploy/Caddyfile in front of two replicas whose shared PostgreSQL goes away
 * (decision 181): both stop being ready and leave the rotation, yet users still get the app's own
 * answers (its Portuguese 503, its pages) through the fallback, never Caddy's empty 503. Needs the
 * caddy binary and real PostgreSQL.
 */
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const caddyInstalled = (() => {
  try {
    execFileSync("caddy", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function localCaddyfile(port: number, apps: string[]) {
  const swaps: Array<[string, string]> = [
    [":80 {", `:${port} {`],
    ["app1:3000 app2:3000", apps.join(" ")],
    ["reverse_proxy minio:9000", "reverse_proxy 127.0.0.1:9"],
  ];
  return swaps.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`deploy/Caddyfile no longer has "${from}"`);
    return text.replaceAll(from, to);
  }, readFileSync(path.join(root, "deploy/Caddyfile"), "utf8"));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!caddyInstalled || !onRealPostgres())("deploy/Caddyfile when no replica is ready (needs caddy and PostgreSQL)", () => {
  let h: Harness;
  let db: Awaited<ReturnType<typeof tcpProxy>>;
  let proxied: DatabaseHandle;
  let servers: Awaited<ReturnType<typeof startServer>>[] = [];
  let caddy: ChildProcess | null = null;
  let dir: string;
  let proxyUrl: string;

  beforeAll(async () => {
    h = await createHarness();
    const direct = new URL((h.dbHandle as DatabaseHandle & { url: string }).url);
    db = await tcpProxy(Number(direct.port || 5432), direct.hostname);
    direct.port = String(db.port);
    proxied = await openDatabase({ url: direct.toString(), poolMax: 4 });
    dir = mkdtempSync(path.join(tmpdir(), "elo-caddy-ready-"));
    const webDist = path.join(dir, "web");
    mkdirSync(path.join(webDist, "assets"), { recursive: true });
    writeFileSync(path.join(webDist, "index.html"), '<!doctype html><html lang="pt-BR"><title>Elo Escolar</title></html>');
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: h.config.DATA_DIR, LOG_LEVEL: "silent", PUBLIC_URL: TEST_ORIGIN, DEMO: "0", PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0", JOBS_INTERVAL_MS: "0", WEB_DIST: webDist });
    servers = [await startServer(config, { clock: h.clock, dbHandle: proxied }), await startServer(config, { clock: h.clock, dbHandle: proxied })];
    const port = await freePort();
    proxyUrl = `http://127.0.0.1:${port}`;
    const file = path.join(dir, "Caddyfile");
    writeFileSync(file, localCaddyfile(port, servers.map((s) => new URL(s.url).host)));
    caddy = spawn("caddy", ["run", "--config", file, "--adapter", "caddyfile"], { env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }, stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${proxyUrl}/readyz`).then((r) => r.ok, () => false)) return;
      await sleep(100);
    }
    throw new Error("Caddy did not answer");
  }, 60_000);

  afterAll(async () => {
    caddy?.kill();
    await db?.restore().catch(() => {});
    for (const s of servers) await s.close();
    await proxied?.close().catch(() => {});
    await db?.close();
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("with the database down, both replicas leave the rotation and users still get the app's Portuguese 503 and its pages", async () => {
    expect((await fetch(`${proxyUrl}/trpc/reference.states`)).status).toBe(200);
    await db.cut();
    // Two active health checks (every 2 s) see /readyz answer 503 on both replicas.
    for (const s of servers) expect((await fetch(`${s.url}/readyz`)).status).toBe(503);
    await sleep(5000);

    const api = await fetch(`${proxyUrl}/trpc/reference.states`, { signal: AbortSignal.timeout(10_000) });
    const body = await api.text();
    expect(api.status).toBe(503);
    // The app's answer (Caddy's own 503 has an empty body).
    expect(body).toContain(accessMessages.serviceUnavailable);
    const page = await fetch(`${proxyUrl}/login`, { signal: AbortSignal.timeout(10_000) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Elo Escolar");
    const publicPage = await fetch(`${proxyUrl}/escolas`, { signal: AbortSignal.timeout(10_000) });
    expect(publicPage.status).toBe(503);
    expect(await publicPage.text()).toContain(accessMessages.serviceUnavailable);
    expect((await fetch(`${proxyUrl}/livez`)).status).toBe(200);

    await db.restore();
    const back = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - back < 15_000) {
      status = (await fetch(`${proxyUrl}/trpc/reference.states`)).status;
      if (status !== 200) await sleep(250);
    }
    expect(status).toBe(200);
  }, 60_000);
});

it.skipIf(caddyInstalled && onRealPostgres())("the proxy readiness test needs caddy and real PostgreSQL", () => {
  expect(caddyInstalled && onRealPostgres()).toBe(false);
});
