import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { hash } from "@node-rs/argon2";
import postgres from "postgres";
import { ARGON2_OPTIONS } from "../apps/server/src/auth/password";
import { freshDatabase } from "./lib/database";
import { freePort, ROOT } from "./lib/processes";
import { BENCH_PASSWORD } from "./scale/options";

const bundle = process.env.BUNDLE ?? "apps/server/dist/main.js";
const N = Number(process.env.N ?? 400);
const db = await freshDatabase("postgres://postgres@127.0.0.1:5432/postgres", `elo_login_cpu_${Date.now()}`);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const extra = Object.fromEntries((process.env.EXTRA ?? "").split(",").filter(Boolean).map((kv) => kv.split("=") as [string, string]));
const child = spawn(process.execPath, [...(process.env.NODE_FLAGS ?? "").split(" ").filter(Boolean), path.join(ROOT, bundle)], {
  cwd: ROOT, stdio: ["ignore", "ignore", "inherit"],
  env: { PATH: process.env.PATH, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), PUBLIC_URL: url, DATABASE_URL: db.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), "elo-lc-")), DEMO: "0", LOG_LEVEL: "warn", TRUST_PROXY: "loopback", ...extra },
});
const ticks = () => { const f = readFileSync(`/proc/${child.pid}/task/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" "); return Number(f[11]) + Number(f[12]); };
try {
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 250));
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  const emails: string[] = [];
  const passwordHash = await hash(BENCH_PASSWORD, ARGON2_OPTIONS);
  for (let i = 0; i < 50; i++) {
    const email = `u${i}@bench.test`;
    const [user] = await sql<Array<{ id: string }>>`insert into users (email, password_hash) values (${email}, ${passwordHash}) returning id`;
    await sql`insert into profiles (user_id) values (${user!.id})`;
    emails.push(email);
  }
  await sql.end();
  let i = 0;
  const login = async () => {
    const res = await fetch(`${url}/trpc/auth.login`, { method: "POST", headers: { origin: url, "content-type": "application/json", "x-forwarded-for": `10.9.${(i >> 8) & 255}.${i & 255}` }, body: JSON.stringify({ json: { email: emails[i++ % emails.length], password: BENCH_PASSWORD } }) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`login ${res.status}`);
  };
  for (let k = 0; k < Number(process.env.WARM ?? 100); k++) await login();
  const i0 = ticks(); const ti = performance.now(); await new Promise((r) => setTimeout(r, 3000)); const idle = (ticks() - i0) * 10 / (performance.now() - ti);
  for (let round = 0; round < 3; round++) {
    const t0 = ticks(); const w0 = performance.now();
    for (let k = 0; k < N; k++) { await login(); await new Promise((r) => setTimeout(r, 3)); }
    const ms = (ticks() - t0) * 10; const wall = performance.now() - w0;
    console.log(`round ${round}: main thread ${(ms / N).toFixed(3)} ms/login raw, ${((ms - idle * wall) / N).toFixed(3)} beyond idle (idle ${(idle * 1000).toFixed(1)} ms/s)`);
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  await db.drop();
}
