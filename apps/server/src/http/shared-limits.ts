/// <reference path="../types/fastify-rate-limit-local-store.d.ts" />
import { once } from "node:events";
import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import LocalStore from "@fastify/rate-limit/store/LocalStore.js";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import type { SharedLimits } from "../deps";

/**
 * Every rate-limit counter of every process sits in Redis under this prefix and the limit's key:
 * `elo:rl:login:203.0.113.7`, `elo:rl:api-token:<sha-256 of the token>` (decision 131).
 */
export const REDIS_KEY_PREFIX = "elo:rl:";

/** How long a request may wait for Redis before its limit is counted in this process instead. */
const COMMAND_TIMEOUT_MS = 250;
/** How long the start-up waits for the first connection; past it the server starts counting locally. */
const CONNECT_TIMEOUT_MS = 1000;
/** Reconnection attempts go on for ever, at most this far apart: shared counting resumes when Redis is back. */
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * One fixed window per key: the first hit starts it, every hit counts. Answers the count and the
 * window's remaining milliseconds. A key found without expiry (written by hand) is given one.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type HitClient = Redis & { eloRateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/**
 * Connects to Redis for the rate-limit counters. A request never waits for a Redis that is away:
 * no offline queue, no retried commands, a short command timeout. While Redis does not answer,
 * each limit counts in this process (the plugin's own in-memory store), one warning says so, and
 * the first command Redis answers again brings the shared counting back (one info line).
 */
export async function connectSharedLimits(url: string, logger: FastifyBaseLogger, prefix = REDIS_KEY_PREFIX): Promise<SharedLimits> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
  }) as HitClient;
  redis.defineCommand("eloRateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });

  // Connection errors repeat at every reconnection attempt: only the last one is kept, for the warning.
  let lastConnectionError = "";
  redis.on("error", (error: Error) => (lastConnectionError = error.message));

  let shared = true;
  function fallBack(error: Error) {
    if (!shared) return;
    shared = false;
    logger.warn(
      { err: error.message, connection: lastConnectionError || undefined },
      "Redis does not answer: rate limits now count per process, until it answers again",
    );
  }
  function resume() {
    if (shared) return;
    shared = true;
    logger.info("Redis answers again: rate limits count across every process again");
  }

  const timeout = AbortSignal.timeout(CONNECT_TIMEOUT_MS);
  const ready = await once(redis, "ready", { signal: timeout }).then(
    () => true,
    () => false,
  );
  if (!ready) fallBack(new Error(`not reachable within ${CONNECT_TIMEOUT_MS} ms`));

  class SharedStore implements FastifyRateLimitStore {
    /** This limit's counters while Redis is away. */
    private readonly local = new LocalStore(false, false);

    incr(key: string, callback: Parameters<FastifyRateLimitStore["incr"]>[1], timeWindow: number, max: number) {
      redis.eloRateLimitHit(prefix + key, timeWindow).then(
        ([current, ttl]) => {
          resume();
          callback(null, { current, ttl });
        },
        (error: Error) => {
          fallBack(error);
          this.local.incr(key, callback, timeWindow, max);
        },
      );
    }

    child(): FastifyRateLimitStore {
      return new SharedStore();
    }
  }

  return {
    store: SharedStore,
    connected: () => redis.status === "ready",
    close: () => redis.disconnect(),
  };
}
