import { availableParallelism } from "node:os";

/**
 * Browser scenario files at once (decision 229). Each worker gets its own server and database with
 * the demo world (global-setup.ts), since scenarios change the demo accounts and count rows.
 * E2E_WORKERS overrides (1: one file at a time, as before).
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS) || Math.min(availableParallelism(), 4);

/** This worker's server, among the ones global-setup started: Vitest numbers its workers from 1. */
export function workerIndex(servers: number): number {
  return (Number(process.env.VITEST_POOL_ID ?? "1") - 1) % servers;
}
