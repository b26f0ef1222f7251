import type { Database } from "@elo/db";
import { fillPlaceholders, type Placeholder, type SQL } from "drizzle-orm";
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

/** A statement's text and parameters, some of them drizzle placeholders (`sql.placeholder`) filled per call. */
export interface BuiltQuery {
  sql: string;
  params: unknown[];
}

/** A statement's value, or the placeholder it takes when the statement is built once for many calls. */
export type Bound<T> = T | Placeholder;

/** Builds a statement's text once, for `queryBuilt` to run many times. */
export const buildQuery = (statement: SQL): BuiltQuery => dialect.sqlToQuery(statement);

/** Whether `queryBuilt` can run on `db`: postgres.js, not a transaction, not PGlite. */
export const canRunBuilt = (db: Database) => preparingClient(db) !== null;

/**
 * Runs a statement built once (`buildQuery`) with its placeholders filled from `values`, as a named
 * prepared statement: what `queryRows` does without building the text again. postgres.js only
 * (`canRunBuilt`); elsewhere build the statement and use `queryRows`.
 */
export async function queryBuilt<T>(db: Database, query: BuiltQuery, values: Record<string, unknown>): Promise<T[]> {
  const client = preparingClient(db);
  if (!client) throw new Error("queryBuilt runs on postgres.js only");
  return (await client.unsafe(query.sql, fillPlaceholders(query.params, values), { prepare: true })) as T[];
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
