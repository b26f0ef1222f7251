import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { freePort } from "./child-server";

/** The machine's Redis, which the shared-limit tests use when it answers. */
export const MACHINE_REDIS_URL = "redis://127.0.0.1:6379";

/** True when a Redis at `url` answers PING within `ms` (a raw socket: no client, no reconnection loop). */
export function redisAnswers(url = MACHINE_REDIS_URL, ms = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.setTimeout(ms, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (d) => done(d.toString().startsWith("+PONG")));
  });
}

/** The line a test file prints when it skips for want of Redis. */
export const NO_REDIS = `no Redis answers at ${MACHINE_REDIS_URL}: the tests that need it are skipped (start redis-server to run them)`;

/** A key prefix no other test (or run) uses, so parallel files never share counters. */
export const uniqueKeyPrefix = () => `elo-test:${randomUUID()}:`;

/** A redis-server of the test's own (nothing kept on disk), to stop and start again mid-test. */
export interface OwnRedis {
  url: string;
  /** SIGKILL: connections drop at once, as when the machine goes away. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

export async function startOwnRedis(port?: number): Promise<OwnRedis> {
  const chosen = port ?? (await freePort());
  const url = `redis://127.0.0.1:${chosen}`;
  let proc: ChildProcess | null = null;
  async function start() {
    proc = spawn("redis-server", ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    const deadline = Date.now() + 10_000;
    while (!(await redisAnswers(url, 200))) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on port ${chosen} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function kill() {
    const running = proc;
    proc = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once("exit", r));
    running.kill("SIGKILL");
    await exited;
  }
  await start();
  return { url, kill, restart: start };
}

/** A pino logger whose lines the test reads back (`lines`), at level info and above. */
export function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, next) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      next();
    },
  });
  const logger = pino({ level: "info" }, sink);
  return {
    logger,
    lines,
    /** The lines at `level` (pino's numbers: 30 info, 40 warn) whose message mentions Redis. */
    aboutRedis: (level: number) => lines.filter((l) => l.level === level && /redis/i.test(l.msg)),
  };
}
