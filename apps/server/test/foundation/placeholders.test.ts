import { Placeholder } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { namedValues, placeholdersFor } from "../../src/db/placeholders";

/** The values and shapes of statements built once (decision 215). */
describe("namedValues and placeholdersFor", () => {
  const request = (userId: string, words: string[] | undefined, maxFee?: number) => ({ userId, filters: { words, maxFee }, cursor: undefined });

  it("names each value by its path and leaves absent keys out", () => {
    expect(namedValues(request("u1", ["ingles", "manha"], 250))).toEqual({
      named: { userId: "u1", "filters.words.0": "ingles", "filters.words.1": "manha", "filters.maxFee": 250 },
      shape: "{userId:$,filters:{words:[$,$],maxFee:$}}",
    });
    const p = placeholdersFor(request("u1", ["ingles"], 250)) as unknown as { userId: Placeholder; filters: { words: Placeholder[]; maxFee: Placeholder }; cursor?: unknown };
    expect([p.userId.name, p.filters.words[0]!.name, p.filters.maxFee.name]).toEqual(["userId", "filters.words.0", "filters.maxFee"]);
    expect(p).not.toHaveProperty("cursor");
  });

  it("gives one shape for other values, another for a filter more or a word more", () => {
    const shape = (r: object) => namedValues(r).shape;
    expect(shape(request("u1", ["ingles"], 250))).toBe(shape(request("u2", ["natacao"], 100)));
    expect(shape(request("u1", ["ingles"]))).not.toBe(shape(request("u1", ["ingles"], 250)));
    expect(shape(request("u1", ["ingles"]))).not.toBe(shape(request("u1", ["sao", "joao"])));
    expect(shape(request("u1", undefined))).not.toBe(shape(request("u1", [])));
  });
});
