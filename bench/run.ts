/**
 * npm run bench [-- --schools N --parents N --seconds N --passes N --warmups N --claim-parents N --only a,b --skip-build --keep-db]
 *   Fresh PostgreSQL database → migrations → scale data → production build and server → the six
 *   ratios, each measured side by side with its baseline in this same run → table + bench/results.json.
 *   --only takes marketplace, filtered, claims, framework, login, firstload, twoprocesses, webhooks, publicpages, lighthouse.
 * npm run bench -- --scale [--scales 0.1,1,5 ...]
 *   How cost grows: the same world at several multiples of the default scale → table + bench/growth.json.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runFigures } from "./figures";
import { runGrowth } from "./growth";
import { findPgbench } from "./lib/pgbench";
import { run } from "./lib/processes";
import { loadNow } from "./lib/report";
import { parseScaleArgs } from "./scale/options";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    schools: { type: "string" },
    parents: { type: "string" },
    seconds: { type: "string", default: "10" },
    passes: { type: "string", default: "3" },
    warmups: { type: "string", default: "2" },
    "claim-parents": { type: "string", default: "8000" },
    "skip-build": { type: "boolean", default: false },
    "keep-db": { type: "boolean", default: false },
    only: { type: "string" },
    scale: { type: "boolean", default: false },
    scales: { type: "string", default: "0.1,1,5" },
  },
});
const log = (line: string) => console.log(line);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// Only the server (host, port, credentials) of the URL is used: the bench always creates its own
// fresh database there and never writes into the one named in DATABASE_URL (decision 081).
const serverUrl = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const settings = { warmups: Number(flags.warmups), passes: Number(flags.passes), seconds: Number(flags.seconds) };
if (flags.scale && (flags.schools || flags.parents)) throw new Error("--scale takes its sizes from --scales (multiples of the default scale), not --schools/--parents");
findPgbench();

const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "?", memoryGb: Math.round(totalmem() / 2 ** 30), loadAverageAtStart: loadNow() };
log(`Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, load average ${machine.loadAverageAtStart.join(" / ")}`);
const workDir = mkdtempSync(path.join(tmpdir(), "elo-bench-"));
try {
  if (!flags["skip-build"]) {
    log(`\n[${elapsed()}] Building the production server and web app...`);
    await run("npm", ["run", "build", "--silent"], { env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" } });
  }
  const common = { serverUrl, workDir, settings, keepDb: flags["keep-db"], log, elapsed, machine, started, claimParents: Number(flags["claim-parents"]) };
  if (flags.scale) {
    await runGrowth({ ...common, factors: flags.scales.split(",").map(Number) });
  } else {
    const scale = parseScaleArgs([...(flags.schools ? ["--schools", flags.schools] : []), ...(flags.parents ? ["--parents", flags.parents] : [])]);
    const only = new Set((flags.only ?? "marketplace,filtered,claims,framework,login,firstload,twoprocesses,webhooks,publicpages,lighthouse").split(","));
    await runFigures({ ...common, scale, only });
  }
} finally {
  if (!flags["keep-db"]) rmSync(workDir, { recursive: true, force: true });
}
