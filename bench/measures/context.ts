import type { SqlCapture } from "../lib/capture";
import type { RunningServer } from "../lib/processes";

/** What every measure needs: the running server, the database, the SQL capture and the pass settings. */
export interface MeasureContext {
  server: RunningServer;
  databaseUrl: string;
  capture: SqlCapture;
  workDir: string;
  warmups: number;
  passes: number;
  /** Seconds of each measured pass (warm-ups take half). */
  seconds: number;
  log: (line: string) => void;
  /** false: no profiling pass (the growth table's runs); the figures' runs keep bench/profiles/. */
  profiles?: boolean;
}

export const passSeconds = (ctx: MeasureContext, warmup: boolean) => (warmup ? Math.max(2, Math.round(ctx.seconds / 2)) : ctx.seconds);

/** The production session cookie (NODE_ENV=production uses the __Host- prefix). */
export const sessionCookie = (token: string) => `__Host-elo_session=${token}`;
