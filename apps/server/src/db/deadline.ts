import type { DatabaseHandle } from "@elo/db";

/** After this long a call checks that the database still answers (decision 095). */
const SLOW_CALL_MS = 1500;
/** How often the running calls are looked at: a slow call is noticed between SLOW_CALL_MS and this much later. */
const SWEEP_MS = 250;

export class DatabaseDownError extends Error {
  readonly code = "CONNECTION_CLOSED";
}

interface Call {
  startedAt: number;
  checked: boolean;
  fail: (error: Error) => void;
}

/** The calls running against one database, oldest first, and the one timer that looks at them. */
interface Watch {
  calls: Set<Call>;
  timer: NodeJS.Timeout | null;
}
const watches = new WeakMap<DatabaseHandle, Watch>();

function sweep(handle: DatabaseHandle, watch: Watch) {
  watch.timer = null;
  const due: Call[] = [];
  const now = performance.now();
  for (const call of watch.calls) {
    if (now - call.startedAt < SLOW_CALL_MS) break; // the rest began later
    if (!call.checked) due.push(call);
  }
  if (due.length > 0) {
    for (const call of due) call.checked = true;
    void handle.ping(1500).then((ok) => {
      if (ok) return;
      for (const call of due) call.fail(new DatabaseDownError("database unreachable"));
    });
  }
  if (watch.calls.size > 0) watch.timer = setTimeout(sweep, SWEEP_MS, handle, watch).unref();
}

/**
 * Resolves like `work`, unless `work` is still running after SLOW_CALL_MS and a ping of the database
 * fails: then rejects with DatabaseDownError (mapped to 503). While PostgreSQL is down, postgres.js
 * keeps a query waiting for a connection that retries, so without this a request hangs instead of
 * answering. A slow call on a healthy database is left to finish. Every procedure call goes through
 * this: the calls are kept in a set that one timer looks at, not given a timer and a race each
 * (decision 150).
 */
export function unlessDatabaseDown<T>(handle: DatabaseHandle, work: Promise<T>): Promise<T> {
  let watch = watches.get(handle);
  if (!watch) watches.set(handle, (watch = { calls: new Set(), timer: null }));
  const { calls } = watch;
  return new Promise<T>((resolve, reject) => {
    const call: Call = { startedAt: performance.now(), checked: false, fail: (error) => calls.delete(call) && reject(error) };
    calls.add(call);
    watch.timer ??= setTimeout(sweep, SWEEP_MS, handle, watch).unref();
    work.then(
      (value) => {
        calls.delete(call);
        resolve(value);
      },
      (error: unknown) => {
        calls.delete(call);
        reject(error);
      },
    );
  });
}
