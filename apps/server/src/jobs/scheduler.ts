import type { FastifyBaseLogger } from "fastify";
import { jobLastSuccess, jobRuns } from "../lib/metrics";
import type { JobOutcome } from "./job-runs";

/** A periodic task; `run` resolves with how much it did (for the log). */
export interface Job {
  name: string;
  run(): Promise<number>;
}

export interface Scheduler {
  /** Runs every job once now, in order (joins a run already under way); nothing after `stop`. */
  runNow(): Promise<void>;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/**
 * Runs `jobs` every `intervalMs` (docs/decisions/120). The timer is unref'd so it never keeps the
 * process alive; runs never overlap within a process, and a failing job is logged and tried again
 * at the next tick. Every server process may run it: each job makes its own work exactly-once in
 * the database (row locks with SKIP LOCKED), not by electing one runner.
 */
export function startScheduler(opts: {
  jobs: Job[];
  intervalMs: number;
  logger: FastifyBaseLogger;
  /** Keeps each run for the admin's Operação page (job-runs.ts). */
  record?: (job: string, outcome: JobOutcome) => Promise<void>;
}): Scheduler {
  let running: Promise<void> | null = null;
  let stopped = false;

  async function runAll() {
    for (const job of opts.jobs) {
      try {
        const done = await job.run();
        jobRuns.inc({ job: job.name, outcome: "ok" });
        jobLastSuccess.set({ job: job.name }, Date.now() / 1000);
        await opts.record?.(job.name, { ok: true, done });
        if (done > 0) opts.logger.info({ job: job.name, done }, "scheduled job ran");
      } catch (error) {
        jobRuns.inc({ job: job.name, outcome: "failed" });
        await opts.record?.(job.name, { ok: false, error });
        opts.logger.warn({ err: error, job: job.name }, "scheduled job failed; will retry");
      }
    }
  }

  function runNow() {
    if (stopped) return Promise.resolve();
    running ??= runAll().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = opts.intervalMs > 0 ? setInterval(() => void runNow(), opts.intervalMs) : null;
  timer?.unref();
  // A first run at start: vouchers that expired while no server ran are handled without waiting.
  if (timer) setImmediate(() => void runNow());

  return {
    runNow,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
