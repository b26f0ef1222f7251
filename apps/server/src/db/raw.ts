import type { Database } from "@elo/db";
import type { SQL } from "drizzle-orm";

/** Runs a raw statement and returns its rows, whichever driver (postgres.js or PGlite) is behind `db`. */
export async function queryRows<T>(db: Database, statement: SQL): Promise<T[]> {
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
