/**
 * postgres.js (3.4.9) runs a query of its own on every new connection, before any of ours: it reads
 * the array types from `pg_catalog.pg_type` (`fetch_types`). When that query fails (the database
 * restarted or was cut at that moment, a statement timeout), the driver drops the promise and the
 * failure surfaces as an unhandled rejection that no caller can catch (porsager/postgres#1192,
 * #1205, #1223, open), and Node ends the process on it: one database blip at the wrong instant
 * killed a replica with every request in flight. The query that was waiting on the connection gets
 * its own error and answers 503 as usual, so the rejection itself carries nothing to act on.
 */
export function isTypeFetchFailure(reason: unknown): boolean {
  const query = typeof reason === "object" && reason !== null ? (reason as { query?: unknown }).query : undefined;
  return typeof query === "string" && query.includes("from pg_catalog.pg_type a") && query.includes("b.typarray");
}

/**
 * Keeps the process alive through that one failure (logged as a warning); every other unhandled
 * rejection still ends the process, as Node's default does (decision 222). For process entry
 * points only (the server, the CLIs), never a library.
 */
export function surviveTypeFetchFailures(warn: (error: unknown) => void): void {
  process.on("unhandledRejection", (reason) => {
    if (!isTypeFetchFailure(reason)) throw reason;
    warn(reason);
  });
}
