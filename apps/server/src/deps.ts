import type { Database, DatabaseHandle } from "@elo/db";
import type { FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyBaseLogger } from "fastify";
import type { SessionCache } from "./auth/session-cache";
import type { Config } from "./config";
import type { BackgroundTasks } from "./lib/background";
import type { Clock } from "./lib/clock";
import type { Mailer } from "./mail/mailer";
import type { Storage } from "./storage/storage";
import type { WebhookSender } from "./webhooks/sender";

/** Everything the app needs from the outside world; tests build their own. */
export interface AppDeps {
  config: Config;
  db: Database;
  dbHandle: DatabaseHandle;
  clock: Clock;
  logger: FastifyBaseLogger;
  mailer: Mailer;
  /** Delivers the schools' webhook events (issue 29). */
  webhooks: WebhookSender;
  storage: Storage;
  background: BackgroundTasks;
  /** The rate-limit counters every process shares (REDIS_URL); null counts in this process. */
  sharedLimits: SharedLimits | null;
  /** The sessions this process validated (decision 220); absent: every request reads its session. */
  sessionCache?: SessionCache;
}

/**
 * The rate-limit store every process shares and the Redis connection under it (http/shared-limits.ts).
 * Declared here, not there, so the router's type chain (read by the web and client builds) stays
 * clear of the Redis client.
 */
export interface SharedLimits {
  /** For @fastify/rate-limit's `store` option. */
  store: FastifyRateLimitStoreCtor;
  /** Whether the Redis connection is up now (no round trip): reported by /readyz. */
  connected(): boolean;
  close(): void;
}
