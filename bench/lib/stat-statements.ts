import postgres from "postgres";

/** One row of pg_stat_statements for the bench database. */
export interface StatementStats {
  queryid: string;
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  rows: number;
}

/** Every statement the bench sends for its own bookkeeping starts with this comment, so the reading leaves it out. */
export const BENCH_MARK = "/* bench */";

export const NOT_LOADED =
  "pg_stat_statements is not loaded in the bench's PostgreSQL: the floor falls back to the in-process capture; " +
  "start the bench's own server with `npm run bench:pg` (see docs/performance.md)";

/**
 * Statements that are the bench's, not the app's: marked with BENCH_MARK, the extension's own
 * queries, the ledger's and the settling's reads of pg_stat_activity, pgbench's lookups in the
 * bench_* tables.
 */
export function isBookkeeping(query: string): boolean {
  return query.trimStart().startsWith(BENCH_MARK) || /pg_stat_statements|pg_stat_activity|\bbench_\w+/i.test(query);
}

/**
 * pg_stat_statements on the bench database, when the server loads it (shared_preload_libraries):
 * creates the extension there, resets its counters for that database only, and reads that
 * database's top-level statements (nested ones are inside their caller's time already), without
 * the bench's own. Null when the server does not load it.
 */
export async function openStatStatements(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const [{ libs }] = await sql.unsafe<[{ libs: string }]>(`${BENCH_MARK} select current_setting('shared_preload_libraries') as libs`);
  if (!libs.split(",").some((l) => l.trim().replace(/^"|"$/g, "") === "pg_stat_statements")) {
    await sql.end();
    return null;
  }
  await sql.unsafe(`${BENCH_MARK} create extension if not exists pg_stat_statements`);
  const [{ dbid }] = await sql.unsafe<[{ dbid: number }]>(`${BENCH_MARK} select oid::int as dbid from pg_database where datname = current_database()`);
  return {
    /** Forgets every statement counted so far in the bench database. */
    async reset() {
      await sql.unsafe(`${BENCH_MARK} select pg_stat_statements_reset(0, ${dbid}, 0)`);
    },
    /** The statements counted since the last reset, the bench's own left out. */
    async read(): Promise<StatementStats[]> {
      const rows = await sql.unsafe<Array<{ queryid: string; query: string; calls: string; total: number; mean: number; rows: string }>>(
        `${BENCH_MARK} select queryid::text as queryid, query, calls::text as calls, total_exec_time as total, mean_exec_time as mean, rows::text as rows
         from pg_stat_statements where dbid = ${dbid} and toplevel`,
      );
      return rows
        .filter((r) => !isBookkeeping(r.query))
        .map((r) => ({ queryid: r.queryid, query: r.query, calls: Number(r.calls), totalMs: r.total, meanMs: r.mean, rows: Number(r.rows) }));
    },
    close: () => sql.end(),
  };
}
export type StatStatements = NonNullable<Awaited<ReturnType<typeof openStatStatements>>>;

/** Sums the rows of several passes (same query id) into one list, as if read once after all of them. */
export function addStats(lists: StatementStats[][]): StatementStats[] {
  const byId = new Map<string, StatementStats>();
  for (const s of lists.flat()) {
    const m = byId.get(s.queryid);
    if (!m) byId.set(s.queryid, { ...s });
    else {
      m.calls += s.calls;
      m.totalMs += s.totalMs;
      m.rows += s.rows;
      m.meanMs = m.calls ? m.totalMs / m.calls : 0;
    }
  }
  return [...byId.values()];
}
