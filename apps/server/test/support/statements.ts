import type { Database } from "@elo/db";
import { vi } from "vitest";

/**
 * Counts the statements `db` sends while armed. On postgres.js every statement, drizzle builder or
 * raw, prepared or not, goes through the client's `unsafe`; on PGlite the drizzle entry points are
 * counted instead (one call each).
 */
export function countStatements(db: Database) {
  const client = (db as { $client?: { unsafe?: unknown } }).$client;
  const spies =
    client && typeof client.unsafe === "function"
      ? [vi.spyOn(client as { unsafe: (...a: unknown[]) => unknown }, "unsafe")]
      : (["execute", "select", "insert", "update", "delete", "transaction"] as const).map((k) => vi.spyOn(db, k));
  return {
    count: () => spies.reduce((n, s) => n + s.mock.calls.length, 0),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}
