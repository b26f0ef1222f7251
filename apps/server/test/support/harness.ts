import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { memoryCookieJar } from "../../src/auth/cookie";
import { loadSessionUser, type SessionUser } from "../../src/auth/session";
import { createDeps, startServer, type DepsOverrides } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { manualClock } from "../../src/lib/clock";
import { createCaller } from "../../src/trpc/caller";
import { createContextInner } from "../../src/trpc/init";
import { freshDatabase } from "./test-db";

export const TEST_ORIGIN = "http://localhost:3000";

function testConfig(dataDir: string, extra: Record<string, string> = {}) {
  return loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", PUBLIC_URL: TEST_ORIGIN, DEMO: "0", PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0", JOBS_INTERVAL_MS: "0", WEBHOOK_POLL_MS: "0", ...extra });
}

/**
 * One test file's world: its own database copy, a clock it controls, files in a temp folder, and
 * callers acting as any user. Call `close()` in afterAll.
 */
export async function createHarness(opts: { env?: Record<string, string>; poolMax?: number } = {}) {
  const dbHandle = await freshDatabase({ poolMax: opts.poolMax });
  const dataDir = mkdtempSync(path.join(tmpdir(), "elo-h-"));
  const clock = manualClock(new Date());
  const config = testConfig(dataDir, opts.env);
  const deps = await createDeps(config, { clock, dbHandle });

  /** A caller acting as nobody (null), or as the user with this id. */
  async function caller(userId: string | null = null, extra: { userAgent?: string; cookies?: ReturnType<typeof memoryCookieJar> } = {}) {
    const user: SessionUser | null = userId ? await loadSessionUser(deps.db, userId) : null;
    if (userId && !user) throw new Error(`no such user ${userId}`);
    // Pass `extra.cookies` to read what a procedure set (the caller is a proxy: extra properties on it read as procedures).
    const cookies = extra.cookies ?? memoryCookieJar();
    return Object.assign(createCaller(createContextInner({ deps, user, session: null, cookies, userAgent: extra.userAgent ?? "vitest" })), { cookies });
  }

  return {
    deps,
    db: deps.db,
    dbHandle,
    clock,
    config,
    caller,
    /** Starts the real HTTP server on a free port over this database. */
    async startServer(extraEnv: Record<string, string> = {}, overrides: Pick<DepsOverrides, "logger" | "redisKeyPrefix"> = {}) {
      return startServer(testConfig(dataDir, { ...opts.env, ...extraEnv }), { clock, dbHandle, ...overrides });
    },
    async close() {
      await deps.background.settled();
      await deps.mailer.stop();
      await deps.webhooks.stop();
      deps.storage.close();
      deps.sharedLimits?.close();
      await dbHandle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type Harness = Awaited<ReturnType<typeof createHarness>>;
export type TestServer = Awaited<ReturnType<Harness["startServer"]>>;

/**
 * A harness and its HTTP server for one test file: made before its tests, closed after them.
 * `receive` hands both to the file's own variables: `withServer((s) => ({ h, server } = s));`
 */
export function withServer(receive: (started: { h: Harness; server: TestServer }) => void, opts: Parameters<typeof createHarness>[0] = {}) {
  let started: { h: Harness; server: TestServer } | undefined;
  beforeAll(async () => {
    const h = await createHarness(opts);
    started = { h, server: await h.startServer() };
    receive(started);
  });
  afterAll(async () => {
    await started?.server.close();
    await started?.h.close();
  });
}
