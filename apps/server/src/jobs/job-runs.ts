import { schema, type Database } from "@elo/db";
import { sql } from "drizzle-orm";

/** Every periodic task the admin's Operação page lists, in its order (a job that never ran shows as such). */
export const KNOWN_JOBS = ["expire-vouchers", "lapse-waitlist-offers", "renewal-requests", "backup"] as const;

export type JobOutcome = { ok: true; done: number } | { ok: false; error: unknown };

/**
 * Records a run of `job` in job_runs (one row per job, whichever process ran it): last run, last
 * success or last error, and counters. Never throws: a database that cannot take the record (it is
 * likely why the job failed) must not stop the scheduler.
 */
export async function recordJobRun(db: Database, at: Date, job: string, outcome: JobOutcome): Promise<void> {
  const t = schema.jobRuns;
  const error = outcome.ok ? null : String((outcome.error as Error)?.message ?? outcome.error).slice(0, 500);
  try {
    await db
      .insert(t)
      .values({
        job,
        lastRunAt: at,
        lastSuccessAt: outcome.ok ? at : null,
        lastErrorAt: outcome.ok ? null : at,
        lastError: error,
        lastDone: outcome.ok ? outcome.done : 0,
        runs: 1,
        failures: outcome.ok ? 0 : 1,
      })
      .onConflictDoUpdate({
        target: t.job,
        set: outcome.ok
          ? { lastRunAt: at, lastSuccessAt: at, lastDone: outcome.done, runs: sql`${t.runs} + 1` }
          : { lastRunAt: at, lastErrorAt: at, lastError: error, runs: sql`${t.runs} + 1`, failures: sql`${t.failures} + 1` },
      });
    // Per minute too, for the Operação chart (rare: straight to the shared table).
    const o = schema.opsCounts;
    const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
    await db
      .insert(o)
      .values([{ minute, name: "job_run", label: job, n: 1 }, ...(outcome.ok ? [] : [{ minute, name: "job_failure", label: job, n: 1 }])])
      .onConflictDoUpdate({ target: [o.minute, o.name, o.label], set: { n: sql`${o.n} + excluded.n` } });
  } catch {
    // Logged by the scheduler's own failure path when the database is down.
  }
}
