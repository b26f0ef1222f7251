import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { benefitInput, discountedCents, discountedFee, formatBRL, hasAtMostTwoDecimals, parseBRL, readBRL, schoolMessages, toCents } from "../src/index";

/** The exact discounted fee in centavos, by BigInt: fee × (10000 − bp) / 10000, half rounded up. */
function exact(feeCents: number, bp: number): number {
  const n = BigInt(feeCents) * BigInt(10_000 - bp);
  return Number(n / 10_000n + (n % 10_000n >= 5_000n ? 1n : 0n));
}

const MAX_FEE_CENTS = 9_999_999_999;

describe("money", () => {
  it("formats BRL with comma decimals and dot thousands", () => {
    expect(formatBRL(1234.5)).toBe("R$ 1.234,50");
    expect(formatBRL(0)).toBe("R$ 0,00");
  });

  it("parses what the fee field accepts, and tells an over-precise amount apart", () => {
    expect(parseBRL("1.234,56")).toBe(1234.56);
    expect(parseBRL("420")).toBe(420);
    expect(parseBRL("12,5")).toBe(12.5);
    expect(parseBRL("abc")).toBeNaN();
    expect(parseBRL("1,234")).toBeNaN();
    expect(readBRL("0,001")).toBe("too_precise");
    expect(readBRL("100,005")).toBe("too_precise");
    expect(readBRL("abc")).toBe("invalid");
    expect(readBRL("100,01")).toBe(100.01);
  });

  it("computes the discounted fee to the centavo", () => {
    expect(discountedFee(420, 30)).toBe(294);
    expect(discountedFee(390.5, 40)).toBe(234.3);
    expect(discountedFee(100, 33.33)).toBe(66.67);
    // Floating point gave 75.07 and 1.03: 75.075 and 1.035 round half up.
    expect(discountedFee(100.1, 25)).toBe(75.08);
    expect(discountedFee(1.15, 10)).toBe(1.04);
  });

  it("computes every discounted fee exactly, for any fee up to the column's limit and any percentage", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_FEE_CENTS }), fc.integer({ min: 0, max: 10_000 }), (cents, bp) => {
        expect(discountedCents(cents, bp)).toBe(exact(cents, bp));
        expect(discountedFee(cents / 100, bp / 100)).toBe(exact(cents, bp) / 100);
      }),
      { numRuns: 20_000 },
    );
  });

  it("knows two decimals from more, for every amount the column holds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_FEE_CENTS }), fc.integer({ min: 1, max: 9 }), (cents, third) => {
        const written = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
        expect(hasAtMostTwoDecimals(Number(written))).toBe(true);
        expect(toCents(Number(written))).toBe(cents);
        expect(hasAtMostTwoDecimals(Number(`${written}${third}`))).toBe(false);
      }),
      { numRuns: 20_000 },
    );
    for (const v of [0.001, 100.005, 1e-7, 0.1 + 0.2, Number.NaN, Number.POSITIVE_INFINITY, Number.MIN_VALUE]) expect(hasAtMostTwoDecimals(v), String(v)).toBe(false);
  });

  it("the benefit schema refuses more than two decimals with the field's Portuguese message", () => {
    const base = { teachingStage: "iniciante", categoryId: 1, modalityId: 1, className: "A", classPeriod: "tarde", discountScope: "city", discountValidity: "first_month", numberOfStudents: 1 };
    const fee = benefitInput.safeParse({ ...base, monthlyFee: 0.001, discountPercentage: 10 });
    expect(fee.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["monthlyFee", schoolMessages.feeTooPrecise]]);
    const pct = benefitInput.safeParse({ ...base, monthlyFee: 10, discountPercentage: 1e-7 });
    expect(pct.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["discountPercentage", schoolMessages.percentageTooPrecise]]);
  });
});
