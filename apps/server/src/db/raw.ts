import type { Database } from "@elo/db";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

const dialect = new PgDialect();

interface PreparingClient {
  unsafe: (query: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown>;
}

/** postgres.js behind `db` (not a transaction, not PGlite), which can run named prepared statements. */
function preparingClient(db: Database): PreparingClient | null {
  const client = (db as { $client?: Partial<PreparingClient> }).$client;
  return client && typeof client.unsafe === "function" ? (client as PreparingClient) : null;
}

/**
 * Runs a raw statement and returns its rows, whichever driver (postgres.js or PGlite) is behind `db`.
 * `prepare`: on postgres.js, run it as a named prepared statement (drizzle's `execute` never does),
 * so PostgreSQL parses it once per connection and can reuse its plan: for the large statements of
 * hot paths planning costs more than running (docs/decisions/088).
 */
export async function queryRows<T>(db: Database, statement: SQL, opts: { prepare?: boolean } = {}): Promise<T[]> {
  const client = opts.prepare ? preparingClient(db) : null;
  if (client) {
    const query = dialect.sqlToQuery(statement);
    return (await client.unsafe(query.sql, query.params, { prepare: true })) as T[];
  }
  const result = (await db.execute(statement)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** The name of the constraint a Postgres error is about (postgres.js and PGlite name it differently). */
export function pgConstraint(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    const c = (e as { constraint_name?: unknown; constraint?: unknown }).constraint_name ?? (e as { constraint?: unknown }).constraint;
    if (typeof c === "string") return c;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
