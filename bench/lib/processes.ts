import { spawn, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Event-loop delay since the last reset (ms), from the bench probe. */
  eventLoop(action: "reset" | "report"): Promise<{ p50: number; p99: number; max: number; mean: number; samples: number } | "reset">;
  probe: Probe;
  stop(): Promise<void>;
}

/** What bench/probe/cpu.mjs answers from inside a measured server. */
export interface Probe {
  /** The process's CPU time so far (user + system, every thread), in microseconds. */
  cpuMicros(): Promise<number>;
  /** The same, split: every thread, the kernel's part of it (system), and the main thread alone (JavaScript's; not libuv's pool, where argon2 runs). */
  cpuSplit(): Promise<{ micros: number; mainMicros: number; systemMicros: number; mainSystemMicros: number }>;
  profileStart(): Promise<void>;
  /** Stops the CPU profile and writes it (a .cpuprofile JSON) to `file`. */
  profileStop(file: string): Promise<void>;
}

const CPU_PROBE = path.join(ROOT, "bench/probe/cpu.mjs");

function probeOf(child: ChildProcess): Probe {
  let next = 0;
  type Answer = { error?: string; micros?: number; mainMicros?: number; systemMicros?: number; mainSystemMicros?: number };
  const waiting = new Map<number, (m: Answer) => void>();
  child.on("message", (m: Answer & { probe?: number }) => {
    if (m && typeof m === "object" && typeof m.probe === "number") {
      waiting.get(m.probe)?.(m);
      waiting.delete(m.probe);
    }
  });
  const ask = (op: string, extra: object = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const id = next++;
      waiting.set(id, (m) => (m.error ? reject(new Error(`probe ${op}: ${m.error}`)) : resolve(m)));
      child.send({ probe: id, op, ...extra });
    });
  return {
    cpuMicros: async () => (await ask("cpu")).micros!,
    cpuSplit: async () => {
      const a = await ask("cpu");
      return { micros: a.micros!, mainMicros: a.mainMicros!, systemMicros: a.systemMicros!, mainSystemMicros: a.mainSystemMicros! };
    },
    profileStart: async () => void (await ask("profile:start")),
    profileStop: async (file) => void (await ask("profile:stop", { file })),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server at ${url} did not become healthy`);
}

/** Starts the built production server (apps/server/dist/main.js) with the event-loop probe preloaded. */
export async function startProductionServer(opts: { databaseUrl: string; dataDir: string; logFile: string; poolMax?: number; env?: Record<string, string> }): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = openSync(opts.logFile, "a");
  const child = spawn(process.execPath, ["--import", path.join(ROOT, "bench/probe/event-loop.mjs"), "--import", CPU_PROBE, path.join(ROOT, "apps/server/dist/main.js")], {
    cwd: ROOT,
    stdio: ["ignore", log, log, "ipc"],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: opts.databaseUrl,
      // Unset: the app's own default pool size, the one production gets.
      ...(opts.poolMax ? { DATABASE_POOL_MAX: String(opts.poolMax) } : {}),
      DATA_DIR: opts.dataDir,
      DEMO: "0",
      LOG_LEVEL: "info",
      // The bench plays many parents from many addresses (X-Forwarded-For), as the proxy in front of
      // a production server would send them; without this every request counts against one IP's limit.
      TRUST_PROXY: "loopback",
      // Runtime flags to try on the measured server (e.g. --max-semi-space-size=32), none by default.
      ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
      // Settings to compare on the measured server (e.g. SESSION_CACHE=0), none by default.
      ...(process.env.BENCH_SERVER_ENV ? Object.fromEntries(process.env.BENCH_SERVER_ENV.split(",").map((kv) => kv.split("=", 2) as [string, string])) : {}),
      ...opts.env,
    },
  });
  await waitHealthy(`${url}/healthz`, child, 60_000);
  const pending: Array<(m: unknown) => void> = [];
  child.on("message", (m: { eld?: unknown }) => {
    if (m && typeof m === "object" && "eld" in m) pending.shift()?.(m.eld);
  });
  return {
    url,
    port,
    child,
    eventLoop(action) {
      return new Promise((resolve) => {
        pending.push(resolve as (m: unknown) => void);
        child.send(`eld:${action}`);
      });
    },
    probe: probeOf(child),
    stop: () => stopChild(child),
  };
}

/** Starts a baseline server of the framework-tax figure: bare Fastify, or tRPC alone on Fastify. */
export async function startBareServer(script: "bare-server.mjs" | "bare-trpc-server.mjs" | "bare-page-server.mjs" | "static-twin-server.mjs", env: Record<string, string> = {}): Promise<{ url: string; probe: Probe; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ["--import", CPU_PROBE, path.join(ROOT, "bench", script)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { ready?: number }) => (m.ready ? resolve(m.ready) : reject(new Error("bare server failed"))));
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, probe: probeOf(child), stop: () => stopChild(child) };
}

/** Runs a command to completion; rejects with its output on a non-zero exit. */
export function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${out.slice(-4000)}`))));
  });
}
