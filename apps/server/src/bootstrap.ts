import path from "node:path";
import { openDatabase, seedReference, type DatabaseHandle } from "@elo/db";
import type { FastifyBaseLogger } from "fastify";
import { pino } from "pino";
import { buildApp } from "./app";
import { SessionCache } from "./auth/session-cache";
import type { Config } from "./config";
import type { AppDeps } from "./deps";
import { seedDemoWorld } from "./demo/demo-world";
import { connectSharedLimits } from "./http/shared-limits";
import { LISTEN_BACKLOG } from "./http/shutdown";
import { backgroundTasks } from "./lib/background";
import { startRenewalRequests } from "./jobs/renewal-requests";
import { systemClock, type Clock } from "./lib/clock";
import { sharedSecret } from "./lib/secrets";
import { startOpsCountsFlush } from "./lib/ops-counts";
import { recordJobRun, type JobOutcome } from "./jobs/job-runs";
import { startScheduler } from "./jobs/scheduler";
import { accessLogJobs } from "./access-log/retention";
import { voucherJobs } from "./jobs/voucher-jobs";
import { createMailer } from "./mail/mailer";
import { diskStorage } from "./storage/disk-storage";
import { s3Storage } from "./storage/s3-storage";
import { createWebhookSender } from "./webhooks/sender";

/** Opens the database (real PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR), migrates and loads reference data. */
export async function openAppDatabase(config: Config): Promise<DatabaseHandle> {
  const handle = config.DATABASE_URL
    ? await openDatabase({ url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX })
    : await openDatabase({ dataDir: path.resolve(config.DATA_DIR, "pglite") });
  await handle.migrate();
  await seedReference(handle.db);
  return handle;
}

/** What tests put in place of the configured parts (`redisKeyPrefix`: keeps parallel test files' counters apart). */
export interface DepsOverrides {
  clock?: Clock;
  dbHandle?: DatabaseHandle;
  logger?: FastifyBaseLogger;
  redisKeyPrefix?: string;
}

/** Builds every dependency of the app from the configuration. */
export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<AppDeps> {
  const logger =
    overrides.logger ??
    pino({
      level: config.LOG_LEVEL,
      redact: ["req.headers.cookie", "req.headers.authorization", "password", "*.password"],
    });
  const dbHandle = overrides.dbHandle ?? (await openAppDatabase(config));
  const clock = overrides.clock ?? systemClock;
  const now = () => clock.now().getTime();
  const storage = config.s3 ? s3Storage(config.s3, now) : diskStorage(path.resolve(config.DATA_DIR, "storage"), await sharedSecret(dbHandle.db, "file_signing_secret"), now);
  const mailer = createMailer({ db: dbHandle.db, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, clock, logger, env: config, logText: !config.isProduction });
  if (!config.SMTP_URL && config.isProduction) logger.warn("SMTP_URL is not set: e-mails are kept in the outbox (email_outbox) and not sent");
  const sharedLimits = config.REDIS_URL && config.RATE_LIMIT ? await connectSharedLimits(config.REDIS_URL, logger, overrides.redisKeyPrefix) : null;
  const webhooks = createWebhookSender({ db: dbHandle.db, clock, logger, mailer, env: config, post: { production: config.isProduction } });
  return { config, db: dbHandle.db, dbHandle, clock, logger, mailer, webhooks, storage, background: backgroundTasks(logger), sharedLimits, ...(config.SESSION_CACHE ? { sessionCache: new SessionCache(now) } : {}) };
}

/** Starts the whole server; `close()` stops it gracefully. */
export async function startServer(config: Config, overrides: DepsOverrides = {}) {
  const deps = await createDeps(config, overrides);
  if (config.demo) {
    const logins = await seedDemoWorld(deps);
    if (logins) deps.logger.info(logins, "demo world created");
    if (logins) printDemoLogins(logins);
  }
  const app = await buildApp(deps);
  await app.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG });
  deps.mailer.start();
  if (config.WEBHOOK_POLL_MS > 0) deps.webhooks.start(config.WEBHOOK_POLL_MS);
  const record = (job: string, outcome: JobOutcome) => recordJobRun(deps.db, deps.clock.now(), job, outcome);
  const scheduler = startScheduler({ jobs: [...voucherJobs(deps), ...accessLogJobs(deps)], intervalMs: config.JOBS_INTERVAL_MS, logger: deps.logger, record });
  const stopRenewals = startRenewalRequests(deps, undefined, record);
  const stopOpsCounts = startOpsCountsFlush(deps.db, (error) => deps.logger.warn({ err: error }, "ops counts: flush failed; kept for the next one"));
  return {
    app,
    deps,
    url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
    async close() {
      await app.close();
      await scheduler.stop();
      await stopRenewals();
      await deps.mailer.stop();
      await deps.webhooks.stop();
      await stopOpsCounts();
      deps.storage.close();
      deps.sharedLimits?.close();
      if (!overrides.dbHandle) await deps.dbHandle.close();
    },
  };
}

function printDemoLogins(logins: Record<string, { email: string; password: string }>) {
  const lines = Object.entries(logins).map(([who, l]) => `  ${who.padEnd(12)} ${l.email}  /  ${l.password}`);
  console.log(`\nElo Escolar demo logins:\n${lines.join("\n")}\n`);
}
