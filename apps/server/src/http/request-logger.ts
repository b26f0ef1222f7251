import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions } from "fastify/types/logger";

/**
 * The logger Fastify gives each request (`req.log`, bound to the request's id), made at its first
 * use: in production a request logs only when it fails or is slow (decision 088), and pino's
 * `child` (bindings serialised, redaction set up) cost ~2% of a trivial request (decision 150).
 */
export class LazyChildLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options?: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #logger(): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level() {
    return this.#logger.level;
  }
  set level(level: string) {
    this.#logger.level = level;
  }
  fatal(...args: unknown[]) {
    (this.#logger.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]) {
    (this.#logger.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]) {
    (this.#logger.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]) {
    (this.#logger.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]) {
    (this.#logger.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]) {
    (this.#logger.trace as (...a: unknown[]) => void)(...args);
  }
  silent(...args: unknown[]) {
    (this.#logger.silent as (...a: unknown[]) => void)(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}
