/**
 * npm run bench [-- --schools N --parents N --seconds N --passes N --warmups N --skip-build --keep-db]
 * Fresh PostgreSQL database → migrations → scale data → production build and server → the five
 * ratios, each measured side by side with its baseline in this same run → table + bench/results.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { generateScale } from "./generate-scale";
import { createSqlCapture } from "./lib/capture";
import { freshDatabase } from "./lib/database";
import { claimFixture, loginFixture, marketplaceFixture } from "./lib/fixtures";
import { findPgbench } from "./lib/pgbench";
import { ROOT, run, startProductionServer } from "./lib/processes";
import { printTable, type Figure } from "./lib/report";
import { measureClaims } from "./measures/claims";
import type { MeasureContext } from "./measures/context";
import { measureFirstLoad } from "./measures/firstload";
import { measureFramework } from "./measures/framework";
import { measureLogin } from "./measures/login";
import { measureMarketplace } from "./measures/marketplace";
import { FULL_SCALE, parseScaleArgs } from "./scale/options";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    schools: { type: "string" },
    parents: { type: "string" },
    seconds: { type: "string", default: "10" },
    passes: { type: "string", default: "3" },
    warmups: { type: "string", default: "2" },
    "claim-parents": { type: "string", default: "4000" },
    "skip-build": { type: "boolean", default: false },
    "keep-db": { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const only = new Set((flags.only ?? "marketplace,claims,framework,login,firstload").split(","));
const log = (line: string) => console.log(line);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// Only the server (host, port, credentials) of the URL is used: the bench always creates its own
// fresh database there and never writes into the one named in DATABASE_URL (decision 081).
const serverUrl = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const scale = parseScaleArgs([
  ...(flags.schools ? ["--schools", flags.schools] : []),
  ...(flags.parents ? ["--parents", flags.parents] : []),
]);
findPgbench();

const workDir = mkdtempSync(path.join(tmpdir(), "elo-bench-"));
const database = await freshDatabase(serverUrl);
log(`Bench database ${database.name}; work files in ${workDir}`);
const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "?", memoryGb: Math.round(totalmem() / 2 ** 30), loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100) };
log(`Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, load average ${machine.loadAverageAtStart.join(" / ")}`);

let stopServer: (() => Promise<void>) | null = null;
try {
  log(`\n[${elapsed()}] Generating ${scale.schools} schools, ${scale.parents} parents${scale.schools < FULL_SCALE.schools ? " (reduced scale)" : ""}...`);
  const generation = await generateScale(database.url, scale, (l) => log(l));

  if (!flags["skip-build"]) {
    log(`\n[${elapsed()}] Building the production server and web app...`);
    await run("npm", ["run", "build", "--silent"], { env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" } });
  }

  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const marketSessions = await marketplaceFixture(sql, 300);
  const loginUsers = await loginFixture(sql, 3000);
  await sql.end();

  const dataDir = path.join(workDir, "data");
  mkdirSync(dataDir);
  const server = await startProductionServer({ databaseUrl: database.url, dataDir, logFile: path.join(workDir, "server.log") });
  stopServer = server.stop;
  log(`[${elapsed()}] Production server at ${server.url} (log: ${path.join(workDir, "server.log")})`);
  const capture = await createSqlCapture(database.url, server.url);
  const ctx: MeasureContext = {
    server,
    databaseUrl: database.url,
    capture,
    workDir,
    warmups: Number(flags.warmups),
    passes: Number(flags.passes),
    seconds: Number(flags.seconds),
    log,
  };

  const results: Record<string, unknown> = {};
  const figures: Figure[] = [];
  if (only.has("marketplace")) {
    log(`\n[${elapsed()}] 1. Marketplace (10 concurrent)`);
    const r = await measureMarketplace(ctx, marketSessions);
    results.marketplace = r;
    figures.push({ name: "1. marketplace.list ÷ pgbench (c10)", value: r.ratio, goal: "≥ 0.5", met: r.ratio >= 0.5, detail: `${r.appRps} vs ${r.pgbenchTps}/s${r.non2xx ? `; ${r.non2xx} non-2xx` : ""}` });
    figures.push({ name: "   marketplace p99 (c10, full data)", value: r.p99Ms, goal: "< 50 ms", met: r.p99Ms < 50, detail: `p50 ${r.p50Ms} ms, pages of 24 of ${r.averageItems} cards/parent` });
  }
  if (only.has("claims")) {
    log(`\n[${elapsed()}] 2. Claims (50 concurrent parents)`);
    const sql2 = postgres(database.url, { max: 1, onnotice: () => {} });
    const fx = await claimFixture(sql2, { parents: Number(flags["claim-parents"]), benefits: 50, slotsEach: 100_000, hotSlots: 7, hotParents: 50 });
    await sql2.end();
    const r = await measureClaims(ctx, fx);
    results.claims = r;
    figures.push({ name: "2. claim.create ÷ pgbench (c50)", value: r.ratio, goal: "≥ 0.45", met: r.ratio >= 0.45, detail: `${r.appClaimsPerSecond} vs ${r.pgbenchTps}/s${r.appNon2xx ? `; ${r.appNon2xx} non-2xx` : ""}` });
    figures.push({ name: "   zero oversell", value: r.zeroOversell ? "yes" : "NO", goal: "yes", met: r.zeroOversell, detail: `race ${r.race.succeeded}/${r.race.slots} slots; vouchers ${r.ledger.vouchers} = slots ${r.ledger.consumed}` });
  }
  if (only.has("framework")) {
    log(`\n[${elapsed()}] 3. Framework tax (-c100 -p10)`);
    const r = await measureFramework(ctx);
    results.framework = r;
    figures.push({ name: "3. trivial procedure ÷ bare Fastify", value: r.ratio, goal: "≥ 0.2", met: r.ratio >= 0.2, detail: `${r.appRps} vs ${r.bareRps} req/s; tRPC alone ${r.trpcOnlyRatio}` });
  }
  const hasLogin = only.has("login") && (await fetch(`${server.url}/trpc/auth.login`, { method: "POST", headers: { origin: server.url, "content-type": "application/json" }, body: "{}" })).status !== 404;
  if (only.has("login") && !hasLogin) log(`\n[${elapsed()}] 4. Login: not measured, this build has no auth.login procedure`);
  if (hasLogin) {
    log(`\n[${elapsed()}] 4. Login`);
    const r = await measureLogin(ctx, loginUsers);
    results.login = r;
    figures.push({ name: "4. login p50 ÷ argon2 verify p50", value: r.ratio, goal: "≤ 1.15", met: r.ratio <= 1.15, detail: `${r.loginP50Ms} vs ${r.argon2P50Ms} ms` });
    figures.push({ name: "   event loop p99, 50-client storm", value: r.storm.eventLoopP99Ms, goal: "< 10 ms", met: r.storm.eventLoopP99Ms < 10, detail: `${r.storm.loginsPerSecond} logins/s` });
  }
  await capture.close();
  await server.stop();
  stopServer = null;

  if (only.has("firstload")) {
    const r = measureFirstLoad();
    results.firstLoad = r;
    for (const [route, v] of Object.entries(r.routes)) {
      figures.push({ name: `5. first load ${route} ÷ 170 KB`, value: v.ratio, goal: "≤ 1.0", met: v.ratio <= 1, detail: `${v.gzipKb} KB gzip, ${v.files} files` });
    }
  }

  const report = {
    date: new Date().toISOString(),
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100) },
    settings: { warmups: ctx.warmups, passes: ctx.passes, seconds: ctx.seconds },
    generation,
    results,
    figures,
    totalSeconds: Math.round((performance.now() - started) / 1000),
  };
  writeFileSync(path.join(ROOT, "bench/results.json"), `${JSON.stringify(report, null, 2)}\n`);
  log(`\n[${elapsed()}] Done. Load average now ${report.machine.loadAverageAtEnd.join(" / ")}.`);
  printTable(figures);
  log(`Written: bench/results.json`);
  if (readFileSync(path.join(workDir, "server.log"), "utf8").includes('"level":50')) log("Note: the server logged errors; see the log above.");
} finally {
  if (stopServer) await stopServer();
  if (!flags["keep-db"]) await database.drop();
  else log(`Kept database ${database.url}`);
  if (!flags["keep-db"]) rmSync(workDir, { recursive: true, force: true });
}
