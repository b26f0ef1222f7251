import { describe, expect, it } from "vitest";
import { formatDate, formatLongDate, normalizeKey, parseDateBR, validityEndDate } from "../src/index";

describe("dates", () => {
  it("formats dd/MM/yyyy and long pt-BR dates", () => {
    expect(formatDate("2026-03-14")).toBe("14/03/2026");
    expect(formatLongDate("2026-03-14")).toBe("14 de março de 2026");
  });
  it("reads dates typed as dd/mm/aaaa, refusing days the calendar lacks", () => {
    expect(parseDateBR("10/03/2015")).toBe("2015-03-10");
    expect(parseDateBR(" 10032015 ")).toBe("2015-03-10");
    expect(parseDateBR("29/02/2024")).toBe("2024-02-29");
    expect(parseDateBR("29/02/2023")).toBeNull();
    expect(parseDateBR("31/04/2026")).toBeNull();
    expect(parseDateBR("03/10/15")).toBeNull();
    expect(parseDateBR("2015-03-10")).toBeNull();
    expect(parseDateBR("")).toBeNull();
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
