/** The time source; tests replace it to move time forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export function manualClock(start = new Date()): Clock & { advance(ms: number): void; set(d: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(d) {
      current = d.getTime();
    },
  };
}
