import type { Database, DatabaseHandle } from "@elo/db";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config";
import type { BackgroundTasks } from "./lib/background";
import type { SharedLimits } from "./http/shared-limits";
import type { Clock } from "./lib/clock";
import type { Mailer } from "./mail/mailer";
import type { Storage } from "./storage/storage";

/** Everything the app needs from the outside world; tests build their own. */
export interface AppDeps {
  config: Config;
  db: Database;
  dbHandle: DatabaseHandle;
  clock: Clock;
  logger: FastifyBaseLogger;
  mailer: Mailer;
  storage: Storage;
  background: BackgroundTasks;
  /** The rate-limit counters every process shares (REDIS_URL); null counts in this process. */
  sharedLimits: SharedLimits | null;
}
