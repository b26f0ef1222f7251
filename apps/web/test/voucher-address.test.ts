import { describe, expect, it } from "vitest";
import { voucherDeskAddress } from "@elo/shared";
import { voucherCodeFromAddress } from "../src/features/voucher-qr/address";

const ORIGIN = "https://eloescolar.com.br";

describe("the voucher's desk address (what its QR code encodes)", () => {
  it("is the desk with the code on the public origin, and reads back as the code", () => {
    const address = voucherDeskAddress(ORIGIN, "4821-KQZT");
    expect(address).toBe("https://eloescolar.com.br/painel-escola?voucher=4821-KQZT");
    expect(voucherCodeFromAddress(address, ORIGIN)).toBe("4821-KQZT");
  });

  it("forgives case, a missing hyphen, spaces around and a trailing slash", () => {
    expect(voucherCodeFromAddress(" https://eloescolar.com.br/painel-escola/?voucher=4821kqzt ", ORIGIN)).toBe("4821-KQZT");
  });

  it("refuses anything that is not this site's desk address with a well-formed code", () => {
    for (const text of [
      "4821-KQZT",
      "https://example.com/painel-escola?voucher=4821-KQZT",
      "http://eloescolar.com.br/painel-escola?voucher=4821-KQZT",
      "https://eloescolar.com.br.example.com/painel-escola?voucher=4821-KQZT",
      "https://eloescolar.com.br/home?voucher=4821-KQZT",
      "https://eloescolar.com.br/painel-escola",
      "https://eloescolar.com.br/painel-escola?voucher=482-KQZT",
      "https://eloescolar.com.br/painel-escola?voucher=4821-KQZT1",
      "WIFI:S:rede;T:WPA;P:senha;;",
      "",
    ]) {
      expect(voucherCodeFromAddress(text, ORIGIN), text).toBeNull();
    }
  });
});
