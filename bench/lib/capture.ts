import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { schema, type Database, type DatabaseHandle } from "@elo/db";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { memoryCookieJar } from "../../apps/server/src/auth/cookie";
import { loadSessionUser } from "../../apps/server/src/auth/session";
import type { InjectOptions } from "fastify";
import { buildApp } from "../../apps/server/src/app";
import { createDeps } from "../../apps/server/src/bootstrap";
import { loadConfig } from "../../apps/server/src/config";
import { createCaller } from "../../apps/server/src/trpc/caller";
import { createContextInner } from "../../apps/server/src/trpc/init";
import type { CapturedStatement } from "./pgbench";

/**
 * Calls procedures in-process over a postgres.js client that records every statement it sends, so
 * the pgbench baselines replay exactly the SQL the production code runs (not a hand-copied version).
 * `record` calls a procedure directly; `inject` sends a whole HTTP request through the app built on
 * the same client, so the session lookup and whatever else the HTTP path sends are recorded too.
 */
export async function createSqlCapture(databaseUrl: string, publicUrl: string) {
  let recording: CapturedStatement[] | null = null;
  const client = postgres(databaseUrl, {
    max: 1,
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
    debug: (_connection, query, params) => {
      recording?.push({ query, params: [...params] });
    },
  });
  const db = drizzle(client, { schema }) as unknown as Database;
  const dbHandle: DatabaseHandle = {
    db,
    kind: "postgres",
    migrate: async () => {},
    listen: async () => async () => {},
    ping: async () => true,
    pool: () => null,
    close: () => client.end({ timeout: 5 }),
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), "elo-bench-capture-"));
  const config = loadConfig({ NODE_ENV: "production", PUBLIC_URL: publicUrl, DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO: "0", DATABASE_URL: databaseUrl, TRUST_PROXY: "loopback" });
  const deps = await createDeps(config, { dbHandle });

  async function callerFor(userId: string) {
    const user = await loadSessionUser(db, userId);
    if (!user) throw new Error(`no user ${userId}`);
    return createCaller(createContextInner({ deps, user, session: null, cookies: memoryCookieJar(), userAgent: "bench" }));
  }

  let app: Awaited<ReturnType<typeof buildApp>> | null = null;

  return {
    /** The app's PUBLIC_URL (the Origin its mutations must carry). */
    publicUrl,
    /** Sends one HTTP request through the app in-process; returns the answer with every statement it sent, work deferred past the answer included. */
    async inject(request: InjectOptions) {
      app ??= await buildApp(deps);
      recording = [];
      try {
        const response = await app.inject(request);
        await deps.background.settled();
        return { response, statements: recording };
      } finally {
        recording = null;
      }
    },
    /** Runs `fn` and returns its result with the statements it sent. */
    async record<T>(userId: string, fn: (caller: Awaited<ReturnType<typeof callerFor>>) => Promise<T>) {
      const caller = await callerFor(userId);
      recording = [];
      try {
        const result = await fn(caller);
        return { result, statements: recording };
      } finally {
        recording = null;
      }
    },
    async close() {
      await app?.close();
      await deps.mailer.stop();
      await client.end({ timeout: 5 });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type SqlCapture = Awaited<ReturnType<typeof createSqlCapture>>;
