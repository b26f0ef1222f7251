import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { isPlainJson, transformer } from "../../src/trpc/transformer";

class Money {
  constructor(public cents: number) {}
}

const card = (i: number) => ({ discountId: `d-${i}`, className: `Inglês ${i}`, discountPercentage: 30, holdDays: null, gold: i % 2 === 0, waitlist: null, tags: ["a", "b"] });
const plain = [null, "texto", "", 0, 1.5, -3, true, false, [], {}, [1, "a", null, [2]], { items: [card(1), card(2)], nextCursor: null, nested: { deep: { deeper: [{}] } } }, Object.create(null)];
const annotated = [
  undefined,
  new Date("2026-11-28T10:00:00Z"),
  { at: new Date(0) },
  { a: 1, b: undefined },
  [1, undefined, 3],
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  { n: Number.NEGATIVE_INFINITY },
  10n,
  new Map([["a", 1]]),
  new Set([1, 2]),
  /re/g,
  new Money(5),
  { items: [card(1), { ...card(2), offerExpiresAt: new Date(1_700_000_000_000) }] },
];

describe("the tRPC transformer (superjson's format, plain answers without superjson's walk)", () => {
  it("tells plain JSON from what superjson annotates", () => {
    for (const v of plain) expect(isPlainJson(v), JSON.stringify(v)).toBe(true);
    for (const v of annotated) expect(isPlainJson(v), String(v)).toBe(false);
  });

  it("writes a plain answer with the same bytes as superjson", () => {
    for (const v of plain) expect(JSON.stringify(transformer.serialize(v))).toBe(JSON.stringify(superjson.serialize(v)));
  });

  it("hands anything annotated to superjson, so a client reading superjson gets the same value back", () => {
    for (const v of annotated) {
      const wire = JSON.parse(JSON.stringify(transformer.serialize(v)));
      expect(wire).toEqual(JSON.parse(JSON.stringify(superjson.serialize(v))));
      const back = superjson.deserialize(wire);
      if (v instanceof Money) expect(back).toEqual({ cents: 5 });
      else expect(back).toEqual(v);
    }
  });

  it("reads inputs as superjson does (dates included)", () => {
    const input = { id: "x", at: new Date(5) };
    expect(transformer.deserialize(JSON.parse(JSON.stringify(superjson.serialize(input))))).toEqual(input);
  });
});
