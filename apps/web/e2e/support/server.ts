import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

const root = fileURLToPath(new URL("../../../../", import.meta.url));

/** The PostgreSQL server the scenarios use (its `postgres` database, for creating others). */
export const e2eAdminUrl = () => process.env.E2E_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function databaseUrl(database: string): string {
  const u = new URL(e2eAdminUrl());
  u.pathname = `/${database}`;
  return u.toString();
}

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
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become healthy");
}

export interface E2eServer {
  baseUrl: string;
  databaseUrl: string;
  stop: () => Promise<void>;
}

/** The built server on a free port over `database` and `dataDir`, with the demo world (seeded if the database is empty). */
export async function startServer({ database, dataDir }: { database: string; dataDir: string }): Promise<E2eServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const url = databaseUrl(database);
  const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: baseUrl, DATABASE_URL: url, DATA_DIR: dataDir, DEMO: "1", RATE_LIMIT: "0", LOG_LEVEL: "warn", JOBS_INTERVAL_MS: "1000" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(baseUrl, child);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  };
  return { baseUrl, databaseUrl: url, stop };
}

/** The names of one run's file copies: its template's, `elo_e2e_tpl_<stamp>`, as `elo_e2e_f_<stamp>_`. */
export const fileCopyPrefix = (templateDatabase: string) => `${templateDatabase.replace("_tpl_", "_f_")}_`;

/**
 * A scenario file's own server: a copy of the demo-world template (database and files), so that
 * what one file seeds, claims or changes is never seen by another, whatever ran before or beside it.
 */
export async function startFileServer(template: { database: string; dataDir: string }): Promise<E2eServer> {
  const database = `${fileCopyPrefix(template.database)}${process.pid}_${Date.now()}`;
  const admin = postgres(e2eAdminUrl(), { max: 1, onnotice: () => {} });
  const dataDir = mkdtempSync(path.join(tmpdir(), "elo-e2e-"));
  try {
    await admin.unsafe(`create database ${database} template ${template.database}`);
    cpSync(template.dataDir, dataDir, { recursive: true });
    const server = await startServer({ database, dataDir });
    return {
      ...server,
      stop: async () => {
        await server.stop();
        await admin.unsafe(`drop database if exists ${database} with (force)`);
        await admin.end();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await admin.unsafe(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
