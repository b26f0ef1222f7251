/** How long failures go on before a delivery is given up and its endpoint paused (issue 29). */
export const RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
/** A claimed delivery is left alone this long (10 s exchange + margin); a crash mid-send retries after it. */
export const DELIVERY_LEASE_MS = 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 12 * 60 * 60 * 1000;

/**
 * The wait after the `attempts`-th failed try: exponential from 30 s, capped at 12 h, with "equal
 * jitter" (half fixed, half random) so receivers coming back up are not hit by every sender at once.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
  return Math.round(base / 2 + (base / 2) * random());
}
