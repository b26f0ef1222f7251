import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketplaceListInput, readMarketplaceSearch, readMarketplaceSearchWithSchema } from "../src/index";

/** /home's address (issue 31): each parameter read on its own with marketplace.list's schema. */
describe("readMarketplaceSearch", () => {
  it("keeps the valid parameters and drops the invalid ones, with no error", () => {
    expect(readMarketplaceSearch({ q: "ingles", maxFee: "abc", sort: "random", where: "mars", minDiscount: 500, category: 2, withSlots: "maybe" })).toEqual({
      q: "ingles",
      category: 2,
    });
  });

  it("reads numbers and flags typed by hand, and trims the search", () => {
    expect(readMarketplaceSearch({ q: "  natação ", maxFee: "200", minDiscount: "12.5", withSlots: "true", access: "claimable", where: "city", sort: "fee" })).toEqual({
      q: "natação",
      maxFee: 200,
      minDiscount: 12.5,
      withSlots: true,
      access: "claimable",
      where: "city",
      sort: "fee",
    });
    expect(readMarketplaceSearch({ q: 2024 })).toEqual({ q: "2024" });
  });

  it("leaves out what means no filter: an empty search, the default order, withSlots false", () => {
    expect(readMarketplaceSearch({ q: "   ", sort: "default", withSlots: false })).toEqual({});
  });

  it("refuses what the API refuses: too precise, too long, negative, NUL", () => {
    expect(readMarketplaceSearch({ maxFee: 10.001, minDiscount: -1, q: "a".repeat(101), category: 0 })).toEqual({});
    expect(readMarketplaceSearch({ q: "a\u0000b" })).toEqual({});
  });

  it("gives what marketplace.list accepts", () => {
    const read = readMarketplaceSearch({ q: "robotica", maxFee: 300, minDiscount: 10, where: "neighborhood", sort: "discount", access: "open" });
    expect(marketplaceListInput.parse({ ...read, facets: true })).toEqual({ ...read, facets: true });
    expect(marketplaceListInput.parse(undefined)).toBeUndefined();
  });
});

describe("readMarketplaceSearch (zod-free) and marketplace.list's schema", () => {
  const value = fc.oneof(
    fc.constantFrom("", " ", "abc", "200", "12.5", "10.001", "-1", "true", "false", "0", "1e3", "NaN", "Infinity", "ingles", "a\u0000b", "default", "discount", "fee", "scope", "newest", "neighborhood", "city", "network", "open", "claimable", "2147483648", " 7 "),
    fc.string({ maxLength: 120 }),
    fc.double(),
    fc.integer({ min: -10, max: 3_000_000_000 }),
    fc.constantFrom(0, 1, 2, 100, 100.01, 99_999_999.99, 100_000_000, 0.5, 12.345),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(fc.string(), { maxLength: 2 }),
  );
  const address = fc.record(
    { q: value, category: value, modality: value, where: value, maxFee: value, minDiscount: value, withSlots: value, access: value, sort: value },
    { requiredKeys: [] },
  );
  it("read every address alike", () => {
    fc.assert(fc.property(address, (raw) => {
        expect(readMarketplaceSearch(raw)).toEqual(readMarketplaceSearchWithSchema(raw));
      }), { numRuns: 2000 });
  });
});

/** /home's page count in the address (decision 175). */
describe("readMarketplacePage", () => {
  it("keeps a whole number from 2 to the maximum and drops anything else, with no error", async () => {
    const { readMarketplacePage, MARKETPLACE_PAGE_MAX } = await import("../src/index");
    expect(readMarketplacePage("2")).toBe(2);
    expect(readMarketplacePage(3)).toBe(3);
    expect(readMarketplacePage(` ${MARKETPLACE_PAGE_MAX} `)).toBe(MARKETPLACE_PAGE_MAX);
    for (const bad of [undefined, null, "", "1", 1, "0", "-1", -2, "1.5", 2.5, "abc", "2e1", "0x10", MARKETPLACE_PAGE_MAX + 1, "99999", true, [2], { page: 2 }])
      expect(readMarketplacePage(bad), JSON.stringify(bad)).toBeUndefined();
  });
});

describe("stepsWith (decision 172)", () => {
  it("adds the chosen value among the steps, in order, once", async () => {
    const { stepsWith, MARKETPLACE_FEE_STEPS } = await import("../src/index");
    expect(stepsWith(MARKETPLACE_FEE_STEPS, undefined)).toEqual([...MARKETPLACE_FEE_STEPS]);
    expect(stepsWith(MARKETPLACE_FEE_STEPS, 300)).toEqual([...MARKETPLACE_FEE_STEPS]);
    expect(stepsWith([200, 300, 500], 250.5)).toEqual([200, 250.5, 300, 500]);
    expect(stepsWith([10, 20], 0)).toEqual([0, 10, 20]);
  });
});
