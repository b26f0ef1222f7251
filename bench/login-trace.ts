/**
 * Where one login's time goes: `npx tsx bench/login-trace.ts [--logins 40] [--skip-build]`.
 * Starts the built production server at log level debug (its logins then log the milliseconds at
 * which each step ended: lib/step-trace.ts), logs one user in `--logins` times one request at a time
 * with an in-process argon2 verification of the same hash between them (as figure 4 does), and
 * prints the median time of each step, the client's total and argon2's.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { hash, verify } from "@node-rs/argon2";
import postgres from "postgres";
import { ARGON2_OPTIONS } from "../apps/server/src/auth/password";
import { freshDatabase } from "./lib/database";
import { freePort, ROOT, run } from "./lib/processes";
import { median, round } from "./lib/stats";
import { BENCH_PASSWORD } from "./scale/options";

const { values: flags } = parseArgs({ options: { logins: { type: "string", default: "40" }, "skip-build": { type: "boolean", default: false } } });
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
if (!flags["skip-build"]) await run("node", ["build.mjs"], { cwd: path.join(ROOT, "apps/server") });

const db = await freshDatabase(serverUrl, `elo_login_trace_${Date.now()}`);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [path.join(ROOT, "apps/server/dist/main.js")], {
  cwd: ROOT,
  stdio: ["ignore", "pipe", "inherit"],
  env: { PATH: process.env.PATH, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), PUBLIC_URL: url, DATABASE_URL: db.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), "elo-trace-")), DEMO: "0", LOG_LEVEL: "debug", TRUST_PROXY: "loopback" },
});
const traces: Array<Record<string, number>> = [];
let pending = "";
child.stdout!.on("data", (chunk: Buffer) => {
  const lines = (pending + chunk.toString()).split("\n");
  pending = lines.pop()!;
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { msg?: string; url?: string; steps?: Record<string, number> };
    if (entry.msg === "request steps" && entry.url === "/trpc/auth.login" && entry.steps) traces.push(entry.steps);
  }
});

try {
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  const email = "trace@bench.test";
  const passwordHash = await hash(BENCH_PASSWORD, ARGON2_OPTIONS);
  const [user] = await sql<Array<{ id: string }>>`insert into users (email, password_hash) values (${email}, ${passwordHash}) returning id`;
  await sql`insert into profiles (user_id) values (${user!.id})`;
  await sql.end();

  const client: number[] = [];
  const argon: number[] = [];
  const total = Number(flags.logins);
  for (let i = 0; i < total + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/trpc/auth.login`, {
      method: "POST",
      headers: { origin: url, "content-type": "application/json", "x-forwarded-for": `10.9.${i >> 8}.${i & 255}` },
      body: JSON.stringify({ json: { email, password: BENCH_PASSWORD } }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`login answered ${res.status}`);
    const t1 = performance.now();
    await verify(passwordHash, BENCH_PASSWORD);
    if (i >= 5) {
      client.push(t1 - t0);
      argon.push(performance.now() - t1);
    }
  }
  await new Promise((r) => setTimeout(r, 200));
  const measured = traces.slice(5);
  const steps = Object.keys(measured[0] ?? {});
  console.log(`${measured.length} logins, load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" / ")}`);
  console.log("step        ends at (median ms since Fastify began the request)   step took (median ms)");
  let previous = "";
  for (const step of steps) {
    const at = median(measured.map((t) => t[step]!));
    const took = previous ? median(measured.map((t) => t[step]! - t[previous]!)) : at;
    console.log(`${step.padEnd(12)}${String(round(at, 2)).padStart(8)}${String(round(took, 2)).padStart(40)}`);
    previous = step;
  }
  const clientMs = median(client);
  const outside = median(measured.map((t, i) => client[i]! - t.answered!));
  console.log(`client total (fetch) ${round(clientMs, 2)} ms, of which ${round(outside, 2)} ms outside the server's request (client, sockets, Node's HTTP parsing)`);
  console.log(`argon2 verify in-process ${round(median(argon), 2)} ms; login ÷ argon2 ${round(clientMs / median(argon), 3)}`);
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  await db.drop();
}
