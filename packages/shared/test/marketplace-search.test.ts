import { describe, expect, it } from "vitest";
import { marketplaceListInput, readMarketplaceSearch } from "../src/index";

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
