import type { DatabaseHandle } from "@elo/db";

/** After this long a call checks that the database still answers (decision 095). */
const SLOW_CALL_MS = 1500;

export class DatabaseDownError extends Error {
  readonly code = "CONNECTION_CLOSED";
}

/**
 * Resolves like `work`, unless `work` is still running after SLOW_CALL_MS and a ping of the database
 * fails: then rejects with DatabaseDownError (mapped to 503). While PostgreSQL is down, postgres.js
 * keeps a query waiting for a connection that retries, so without this a request hangs instead of
 * answering. A slow call on a healthy database is left to finish.
 */
export async function unlessDatabaseDown<T>(handle: DatabaseHandle, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const down = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void handle.ping(1500).then((ok) => {
        if (!ok) reject(new DatabaseDownError("database unreachable"));
      });
    }, SLOW_CALL_MS);
  });
  try {
    return await Promise.race([work, down]);
  } finally {
    clearTimeout(timer);
    work.catch(() => {});
  }
}
