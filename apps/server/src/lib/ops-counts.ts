import { schema, type Database } from "@elo/db";
import { and, eq, gt, lt, sql } from "drizzle-orm";

/**
 * Operation counts shared by every process (decision 188), per minute in `ops_counts`. A refusal
 * is counted here in memory (a flood of 429s must not become a flood of writes) and added to the
 * table by `flushOpsCounts` every few seconds and at shutdown; the admin's Operação page reads
 * every replica's sum.
 */
/**
 * `outbox_failure` is labelled `<outbox>:retry|given_up` (`email:retry`): any outbox (a webhook one
 * later) counts its failed attempts the same way and the chart shows them together.
 */
export type OpsCountName = "rate_limit_refusal" | "job_run" | "job_failure" | "outbox_failure";

const pending = new Map<string, number>();
const KEY_SEP = "\u0000";

const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/** Counts one event of this process (kept in memory until the next flush). */
export function countOp(name: OpsCountName, label: string, nowMs = Date.now()) {
  const key = [minuteOf(nowMs), name, label].join(KEY_SEP);
  pending.set(key, (pending.get(key) ?? 0) + 1);
}

/** How long counts are kept: the page looks at the last 24 hours. */
const KEEP_MS = 2 * 24 * 3600_000;

/**
 * Adds this process's buffered counts to the shared table (one statement) and drops rows past two
 * days. On failure the counts go back into the buffer for the next flush.
 */
export async function flushOpsCounts(db: Database, nowMs = Date.now()): Promise<number> {
  if (pending.size === 0) return 0;
  const rows = [...pending].map(([key, n]) => {
    const [minute, name, label] = key.split(KEY_SEP) as [string, string, string];
    return { minute: new Date(Number(minute)), name, label, n };
  });
  pending.clear();
  const t = schema.opsCounts;
  try {
    await db
      .insert(t)
      .values(rows)
      .onConflictDoUpdate({ target: [t.minute, t.name, t.label], set: { n: sql`${t.n} + excluded.n` } });
    await db.delete(t).where(lt(t.minute, new Date(nowMs - KEEP_MS)));
  } catch (error) {
    for (const r of rows) countBack(r);
    throw error;
  }
  return rows.length;
}

function countBack(r: { minute: Date; name: string; label: string; n: number }) {
  const key = [r.minute.getTime(), r.name, r.label].join(KEY_SEP);
  pending.set(key, (pending.get(key) ?? 0) + r.n);
}

/** Every process's count of `name` since `since` (from the shared table). */
export async function sharedCountSince(db: Database, name: OpsCountName, since: Date): Promise<number> {
  const t = schema.opsCounts;
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${t.n}), 0)::int` })
    .from(t)
    .where(and(eq(t.name, name), gt(t.minute, new Date(minuteOf(since.getTime())))));
  return Number(row?.n ?? 0);
}

/** Flushes every `intervalMs` (unref'd) until the returned stop, which flushes once more. */
export function startOpsCountsFlush(db: Database, onError: (error: unknown) => void, intervalMs = 10_000): () => Promise<void> {
  const timer = setInterval(() => void flushOpsCounts(db).catch(onError), intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await flushOpsCounts(db).catch(onError);
  };
}
