import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { migrationsFolder } from "./paths";
import { pgliteExtensions } from "./pglite-extensions";
import { countedPool, type PoolStats } from "./pool-count";
import * as schema from "./schema/index";
import type { Database, DatabaseKind } from "./types";

export type Unlisten = () => Promise<void>;

/** An open database with its driver-specific extras. */
export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /**
   * Applies pending migrations. On PostgreSQL it holds an advisory lock meanwhile, so server
   * processes starting together on one database migrate one after the other (decision 135).
   */
  migrate(): Promise<void>;
  /**
   * LISTEN on a channel; the callback gets each NOTIFY payload. `onListen` (PostgreSQL) is called each
   * time LISTEN is (re)established: notifications sent while the connection was lost are lost.
   */
  listen(channel: string, onPayload: (payload: string) => void, onListen?: () => void): Promise<Unlisten>;
  /** True when a trivial query answers within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** The connection pool now (PostgreSQL; PGlite has one connection and no pool: null). */
  pool(): PoolStats | null;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { url: string; poolMax?: number; dataDir?: never; pglite?: never }
  | { url?: undefined; dataDir?: string; pglite?: PGlite; poolMax?: never };

/** Opens real PostgreSQL when `url` is given, otherwise PGlite in `dataDir` (in memory without one). */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url ? openPostgres(options.url, options.poolMax ?? 10) : openPglite(options.dataDir, options.pglite);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * The advisory-lock key that serialises migrations across processes ("elo_mig" in ASCII; advisory
 * locks are per database). Drizzle's migrator takes no lock: two processes starting together on a
 * fresh database both read "nothing applied" and both run the first migration, and one start-up
 * fails (duplicate schema, relation already exists) or, worse, a later one re-runs a data migration.
 */
export const MIGRATION_LOCK_KEY = 0x656c6f5f6d6967n;

/** Runs `fn` holding the migration lock, taken on a connection of its own (the lock is the session's). */
async function withMigrationLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const lock = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    return await fn();
  } finally {
    // Ending the session releases the lock even if the unlock itself failed.
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK_KEY.toString()}::bigint)`.catch(() => {});
    await lock.end({ timeout: 1 });
  }
}

async function openPostgres(url: string, poolMax: number): Promise<DatabaseHandle> {
  const pooled = countedPool(postgres(url, {
    max: poolMax,
    connect_timeout: 5,
    // postgres.js's default waits up to 20 s (growing with every failure) before a closed connection
    // may reconnect, and queries queued on it wait that long: during an outage requests hung instead
    // of answering 503, and recovery lagged the database's return. A short, capped pause keeps
    // reconnects cheap and answers quick (decision 095).
    backoff: (retries: number) => Math.min(0.05 * retries, 0.25),
    idle_timeout: 60,
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
  }), poolMax);
  const client = pooled.client;
  // Its own connection: through the pool, a ping waits behind every queued query, so a busy pool
  // (a 200-client claim storm) looked like a dead database and calls answered 503 (decision 097).
  const pinger = postgres(url, { max: 1, connect_timeout: 5, backoff: (retries: number) => Math.min(0.05 * retries, 0.25), idle_timeout: 60, onnotice: () => {} });
  let pinging: Promise<boolean> | null = null;
  const db = drizzlePostgres(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    migrate: () => withMigrationLock(url, () => migratePostgres(db as never, { migrationsFolder })),
    async listen(channel, onPayload, onListen) {
      const sub = await client.listen(channel, onPayload, onListen);
      return () => sub.unlisten();
    },
    ping(timeoutMs = 2000) {
      // Concurrent slow calls share one ping rather than queueing hundreds on the ping connection.
      pinging ??= withTimeout(pinger`select 1`, timeoutMs)
        .then(
          () => true,
          () => false,
        )
        .finally(() => (pinging = null));
      return pinging;
    },
    pool: pooled.stats,
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), pinger.end({ timeout: 1 })]);
    },
  };
}

async function openPglite(dataDir: string | undefined, existing?: PGlite): Promise<DatabaseHandle> {
  if (dataDir && !dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const client = existing ?? (await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: pgliteExtensions }));
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    ping: (timeoutMs = 2000) =>
      withTimeout(client.query("select 1"), timeoutMs).then(
        () => true,
        () => false,
      ),
    pool: () => null,
    close: () => client.close(),
  };
}
