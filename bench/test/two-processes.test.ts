import { describe, expect, it } from "vitest";
import type { HttpResult } from "../lib/http";
import { figure } from "../lib/report";
import { combineLoaders, summarizeTwoProcesses } from "../measures/two-processes";

const loader = (rps: number, non2xx = 0, errors = 0): HttpResult => ({ rps, p50: 20, p99: 60, ok: rps * 3, non2xx, errors });

describe("figure 6: two server processes against one", () => {
  it("adds up the rates of the load generators that ran side by side, and every failure", () => {
    expect(combineLoaders([loader(150, 1), loader(170, 0, 2)])).toEqual({ rps: 320, non2xx: 3 });
  });

  it("is the two-process rate ÷ the one-process rate of the same pass, median over passes", () => {
    const s = summarizeTwoProcesses([
      { one: { rps: 300, non2xx: 0 }, two: { rps: 330, non2xx: 1 } },
      { one: { rps: 200, non2xx: 0 }, two: { rps: 300, non2xx: 0 } },
      { one: { rps: 320, non2xx: 2 }, two: { rps: 320, non2xx: 0 } },
    ]);
    // Per pass, not median ÷ median: a pass measured while the machine was busier stays one pass.
    expect(s.ratioPasses).toEqual([1.1, 1.5, 1]);
    expect(s.ratio).toBe(1.1);
    expect([s.oneRps, s.twoRps, s.non2xx]).toEqual([300, 320, 3]);
    // Passes from 1 to 1.5 around a median of 1.1 spread 45%: the figure reads unstable, not met.
    const f = figure({ name: "6", values: s.ratioPasses, goal: "≥ 0.95", meets: (v) => v >= 0.95, detail: "", load: { before: [1, 1, 1], after: [1, 1, 1] } });
    expect(f.verdict).toBe("unstable");
  });
});
