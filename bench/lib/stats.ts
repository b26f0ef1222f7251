/** The median of a list of numbers (the mean of the two middle values for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A percentile (0-100) of raw samples, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Runs `warmups` unrecorded passes, then `passes` recorded ones; returns the recorded results. */
export async function passes<T>(warmups: number, measured: number, run: (pass: number, warmup: boolean) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < warmups + measured; i++) {
    const result = await run(i, i < warmups);
    if (i >= warmups) out.push(result);
  }
  return out;
}

/** A figure's measured passes: min, median, max and their spread, (max − min) ÷ median. */
export interface Spread {
  min: number;
  median: number;
  max: number;
  spread: number;
}

export function spreadOf(values: number[]): Spread {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { min, median: m, max, spread: m === 0 ? (max === min ? 0 : Number.POSITIVE_INFINITY) : (max - min) / Math.abs(m) };
}
