import { describe, expect, it } from "vitest";
import { concurrencyLimit } from "../../src/lib/limiter";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("concurrencyLimit", () => {
  it("never runs more than `max` tasks at once, and runs them all in arrival order", async () => {
    const run = concurrencyLimit(2);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        run(async () => {
          started.push(i);
          peak = Math.max(peak, ++active);
          await tick();
          active--;
          return i * 10;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it("frees the slot when a task fails", async () => {
    const run = concurrencyLimit(1);
    await expect(run(async () => Promise.reject(new Error("falhou")))).rejects.toThrow("falhou");
    await expect(run(async () => "ok")).resolves.toBe("ok");
  });
});
