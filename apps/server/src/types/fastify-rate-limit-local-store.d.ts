/** @fastify/rate-limit's in-memory store (the plugin's default), which it does not export from its main module. */
declare module "@fastify/rate-limit/store/LocalStore.js" {
  import type { FastifyRateLimitStore } from "@fastify/rate-limit";

  class LocalStore implements FastifyRateLimitStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    incr: FastifyRateLimitStore["incr"];
    child: FastifyRateLimitStore["child"];
  }
  export default LocalStore;
}
