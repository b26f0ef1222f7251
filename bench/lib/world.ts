import { mkdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { generateScale, type ScaleReport } from "../generate-scale";
import type { MeasureContext } from "../measures/context";
import type { ScaleOptions } from "../scale/options";
import { createSqlCapture } from "./capture";
import { freshDatabase } from "./database";
import { claimFixture, loginFixture, marketplaceFixture, type ClaimFixture } from "./fixtures";
import { startProductionServer } from "./processes";

export interface PassSettings {
  warmups: number;
  passes: number;
  seconds: number;
}

/** What every kind of run shares: where to make databases, pass settings, the log and the clock. */
export interface BenchRun {
  serverUrl: string;
  workDir: string;
  settings: PassSettings;
  keepDb: boolean;
  log: (line: string) => void;
  /** Seconds since the run started, for the log. */
  elapsed: () => string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; loadAverageAtStart: number[] };
  started: number;
}

/**
 * One bench world: a fresh database at the given scale, the fixtures of the figures, the built
 * production server on it and the SQL capture. `close()` stops the server and, unless kept, drops
 * the database.
 */
export async function openWorld(opts: BenchRun & { scale: ScaleOptions; loginParents: number }) {
  const database = await freshDatabase(opts.serverUrl);
  const dir = path.join(opts.workDir, database.name);
  mkdirSync(path.join(dir, "data"), { recursive: true });
  opts.log(`Bench database ${database.name}; work files in ${dir}`);
  let stopServer: (() => Promise<void>) | null = null;
  let closeCapture: (() => Promise<void>) | null = null;
  const stop = async () => {
    await closeCapture?.();
    closeCapture = null;
    await stopServer?.();
    stopServer = null;
  };
  const close = async () => {
    await stop();
    if (opts.keepDb) opts.log(`Kept database ${database.url}`);
    else await database.drop();
  };
  try {
    const generation: ScaleReport = await generateScale(database.url, opts.scale, opts.log);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const marketSessions = await marketplaceFixture(sql, 300);
    const loginUsers = opts.loginParents ? await loginFixture(sql, opts.loginParents) : [];
    await sql.end();

    const logFile = path.join(dir, "server.log");
    const server = await startProductionServer({ databaseUrl: database.url, dataDir: path.join(dir, "data"), logFile });
    stopServer = server.stop;
    const capture = await createSqlCapture(database.url, server.url);
    closeCapture = capture.close;
    opts.log(`Production server at ${server.url} (log: ${logFile})`);
    const ctx: MeasureContext = { server, databaseUrl: database.url, capture, workDir: dir, ...opts.settings, log: opts.log };
    return {
      database,
      generation,
      ctx,
      marketSessions,
      loginUsers,
      logFile,
      /** The claim figure's parents, benefits and pairs, made when that figure starts. */
      async claimFixture(parents: number): Promise<ClaimFixture> {
        const s = postgres(database.url, { max: 1, onnotice: () => {} });
        try {
          const fx = await claimFixture(s, { parents, benefits: 50, slotsEach: 100_000, hotSlots: 7, hotParents: 50 });
          if (fx.parents.length < parents) opts.log(`    (${fx.parents.length} claim parents: all this scale has left of the ${parents} asked for)`);
          return fx;
        } finally {
          await s.end();
        }
      },
      /** Stops the server and the capture, keeps the database (the first-load figure needs neither). */
      stopServer: stop,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
