import { describe, expect, it } from "vitest";
import { formatDate, formatLongDate, normalizeKey, validityEndDate } from "../src/index";

describe("dates", () => {
  it("formats dd/MM/yyyy and long pt-BR dates", () => {
    expect(formatDate("2026-03-14")).toBe("14/03/2026");
    expect(formatLongDate("2026-03-14")).toBe("14 de março de 2026");
  });
  it("maps validity texts to end dates", () => {
    const claimed = new Date("2026-03-10T15:00:00Z");
    expect(validityEndDate("first_month", claimed)).toBe("2026-04-10");
    expect(validityEndDate("first_6_months", claimed)).toBe("2026-09-10");
    expect(validityEndDate("school_year", claimed)).toBe("2026-12-31");
  });
});

describe("normalizeKey", () => {
  it("ignores case, accents and extra spaces", () => {
    expect(normalizeKey("  Colégio   São  José ")).toBe("colegio sao jose");
  });
});
