import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { createHarness, TEST_ORIGIN, type Harness } from "./harness";

const serverDir = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Builds the server bundle exactly as `npm run build` does (apps/server/build.mjs), into a private
 * folder so that test files running in parallel never overwrite each other's main.js. The bundle
 * sits under apps/server so its bare imports resolve from the same node_modules as dist/main.js.
 * With `entry` (e.g. `{ name: "incident", source: "src/cli/incident.ts" }`) it builds that CLI instead.
 */
export function buildServerBundle(entry?: { name: string; source: string }): { bundle: string; remove(): void } {
  // Directly under apps/server, like dist/: the bundle finds the migrations at ../../../drizzle.
  const dir = mkdtempSync(path.join(serverDir, ".test-dist-"));
  const outfile = path.join(dir, entry ? `${entry.name}.js` : "main.js");
  execFileSync(process.execPath, ["build.mjs", "--outfile", outfile, ...(entry ? ["--entry", entry.source] : [])], { cwd: serverDir, stdio: "pipe" });
  return { bundle: outfile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  url: string;
  proc: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) and how long after `since` it came. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  output: () => string;
  /** SIGKILL if still running, and remove its data folder. */
  dispose(): Promise<void>;
}

/** Spawns `node <bundle>` (the production entry point, main.ts) on `databaseUrl` and waits for /healthz. */
export async function spawnServer(bundle: string, databaseUrl: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "elo-child-"));
  const proc = spawn(process.execPath, [bundle], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: TEST_ORIGIN,
      DEMO: "0",
      LOG_LEVEL: "warn",
      RATE_LIMIT: "0",
      WEB_DIST: path.join(dataDir, "no-web"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    exited,
    output: () => out,
    async dispose() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGKILL");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SpawnedWorld {
  h: Harness;
  bundle: ReturnType<typeof buildServerBundle>;
  server: ChildServer;
}

/**
 * For a describe block on real PostgreSQL: a harness (pool of 4), the built server bundle and one
 * spawned server on the harness's database, made before the block's tests and removed after them.
 * `receive` hands them to the block's variables: `withSpawnedServer((w) => ({ h, bundle, server } = w));`
 */
export function withSpawnedServer(receive: (world: SpawnedWorld) => void) {
  let h: Harness | undefined;
  let bundle: SpawnedWorld["bundle"] | undefined;
  let server: ChildServer | undefined;
  beforeAll(async () => {
    h = await createHarness({ poolMax: 4 });
    bundle = buildServerBundle();
    server = await spawnServer(bundle.bundle, (h.dbHandle as { url: string }).url);
    receive({ h, bundle, server });
  }, 180_000);
  afterAll(async () => {
    await server?.dispose();
    bundle?.remove();
    await h?.close();
  });
}
