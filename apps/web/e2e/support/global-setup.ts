import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { E2E_WORKERS } from "./workers";

declare module "vitest" {
  export interface ProvidedContext {
    /** One server and database per worker (decision 229). */
    e2eServers: Array<{ baseUrl: string; databaseUrl: string }>;
  }
}

const root = fileURLToPath(new URL("../../../../", import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("server did not become healthy");
}

/**
 * Starts the built server (apps/server/dist) on a free port over a fresh PostgreSQL database with
 * the demo world, so scenarios can also seed rows directly: one per worker, so that files running
 * at once never share accounts or rows. E2E_DATABASE_URL names the server to use.
 */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.E2E_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const servers = await Promise.all(Array.from({ length: E2E_WORKERS }, (_, i) => startServer(admin, adminUrl, `elo_e2e_${Date.now()}_${i}`)));
  project.provide("e2eServers", servers.map(({ baseUrl, databaseUrl }) => ({ baseUrl, databaseUrl })));

  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await admin.end();
  };
}

async function startServer(admin: postgres.Sql, adminUrl: string, dbName: string) {
  await admin.unsafe(`create database ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "elo-e2e-"));
  const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: baseUrl, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, DEMO: "1", RATE_LIMIT: "0", LOG_LEVEL: "warn", JOBS_INTERVAL_MS: "1000" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(baseUrl, child);
  const stop = async () => {
    child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseUrl, databaseUrl, stop };
}
