import { describe, expect, it } from "vitest";
import { figure } from "../lib/report";

const load = { before: [1, 1, 1], after: [2, 1, 1] };
const ratio = (values: number[], voidBecause?: string) => figure({ name: "ratio", values, goal: "≥ 0.5", meets: (v) => v >= 0.5, detail: "", load, voidBecause });

describe("a figure from its passes (decision 112)", () => {
  it("shows min, median and max of the passes and is met or not met on the median", () => {
    const f = ratio([0.52, 0.55, 0.6]);
    expect([f.min, f.median, f.max]).toEqual(["0.52", "0.55", "0.6"]);
    expect(f.spreadPercent).toBe(15);
    expect(f.verdict).toBe("met");
    expect(ratio([0.4, 0.42, 0.45]).verdict).toBe("not met");
  });

  it("is unstable, neither met nor not met, when its passes spread more than 25% of the median", () => {
    // A median that meets the goal, from passes that do not agree: (0.8 − 0.45) ÷ 0.6 = 58%.
    const f = ratio([0.45, 0.6, 0.8]);
    expect(f.spreadPercent).toBe(58);
    expect(f.verdict).toBe("unstable");
    expect(ratio([0.5, 0.55, 0.625]).verdict).toBe("met"); // 22.7%
  });

  it("has no spread when taken once, and is void when its measure says so", () => {
    expect(ratio([0.99]).spreadPercent).toBeNull();
    expect(ratio([0.99]).verdict).toBe("met");
    const dry = ratio([0.6, 0.6, 0.6], "the claim fixture ran dry");
    expect(dry.verdict).toBe("void");
    expect(dry.detail).toContain("ran dry");
  });

  it("keeps the load average before and after the figure", () => {
    expect(ratio([0.6]).load).toEqual(load);
  });
});
