import { VOUCHER_PATTERN } from "@elo/shared";
import { describe, expect, it } from "vitest";
import { saoPauloDay, voucherValidUntil } from "../../src/lib/calendar";
import { renderTemplate, voucherEmail } from "../../src/mail/templates";
import { generateVoucherCode } from "../../src/routers/claim/voucher";

describe("voucher codes", () => {
  it("are NNNN-LLLL with 1000-9999 and capital letters, and vary", () => {
    const codes = Array.from({ length: 2000 }, generateVoucherCode);
    for (const c of codes) expect(c).toMatch(VOUCHER_PATTERN);
    const numbers = codes.map((c) => Number(c.slice(0, 4)));
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(9999);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(new Set(codes.flatMap((c) => c.slice(5).split(""))).size).toBe(26);
  });
});

describe("validity and expiry", () => {
  it("counts validity on the Brasília calendar", () => {
    // 01:00 UTC on 1 January is still 31 December in Brasília.
    expect(saoPauloDay(new Date("2027-01-01T01:00:00Z"))).toBe("2026-12-31");
    // Kept per minute: the minute after Brasília's midnight is the next day, the same minute is not.
    expect(saoPauloDay(new Date("2027-01-01T02:59:59.999Z"))).toBe("2026-12-31");
    expect(saoPauloDay(new Date("2027-01-01T03:00:00Z"))).toBe("2027-01-01");
    expect(saoPauloDay(new Date("2027-01-01T02:59:30Z"))).toBe("2026-12-31");
    expect(voucherValidUntil("school_year", new Date("2027-01-01T01:00:00Z"))).toBe("2026-12-31");
    expect(voucherValidUntil("first_month", new Date("2026-01-31T15:00:00Z"))).toBe("2026-02-28");
    expect(voucherValidUntil("first_6_months", new Date("2026-08-15T15:00:00Z"))).toBe("2027-02-15");
  });
});

describe("voucher e-mail", () => {
  it("carries the code, benefit, fees, validity, the three notes and the confirmation link, escaped", () => {
    const mail = renderTemplate(
      voucherEmail,
      { ...voucherEmail.sample({ publicOrigin: "https://elo.example" }), schoolName: "Escola <Teste> & Cia" },
      { publicOrigin: "https://elo.example" },
    );
    expect(mail.subject).toBe("Seu voucher de desconto: Escola <Teste> & Cia");
    for (const text of ["4821-KQZT", "Inglês Kids (-30%)", "R$ 294,00", "R$ 420,00", "Os 3 primeiros meses", "31/03/2026", "secretaria da escola", "não é a confirmação da matrícula", "pagas diretamente à escola"]) {
      expect(mail.text).toContain(text);
      expect(mail.html).toContain(text);
    }
    expect(mail.html).toContain("Escola &lt;Teste&gt; &amp; Cia");
    expect(mail.html).not.toContain("<Teste>");
    expect(mail.text).toContain("https://elo.example/confirmacao-desconto?transaction=00000000-0000-4000-8000-000000000000");
  });
});
