import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCalendarDate, isCep, isCpf, isPhone, maskCep, maskCpf, maskPhone, onlyDigits, todayInBrazil } from "../src/index";

/** The spec's CPF rule written out plainly, to check the library against. */
function specCpf(value: string): boolean {
  const d = onlyDigits(value);
  if (d.length !== 11 || /^(\d)\1+$/.test(d)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 || r === 11 ? 0 : r;
  };
  return check(9) === Number(d[9]) && check(10) === Number(d[10]);
}

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(""));

/** Builds a valid CPF from 9 digits. */
function completeCpf(nine: string): string {
  let d = nine;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    d += String(r >= 10 ? 0 : r);
  }
  return d;
}
const validCpf = digits(9).map(completeCpf).filter((c) => !/^(\d)\1+$/.test(c));

describe("CPF", () => {
  it("accepts known valid numbers, masked or not", () => {
    expect(isCpf("529.982.247-25")).toBe(true);
    expect(isCpf("52998224725")).toBe(true);
  });
  it("rejects repeated digits, wrong lengths and wrong check digits", () => {
    for (const v of ["111.111.111-11", "000.000.000-00", "5299822472", "529982247250", "529.982.247-26", ""]) expect(isCpf(v)).toBe(false);
  });
  it("every generated valid CPF passes", () => {
    fc.assert(fc.property(validCpf, (cpf) => isCpf(cpf) && isCpf(maskCpf(cpf))));
  });
  // The mod-11 rule maps remainders 10 and 11 to 0, so a change in the body can keep both check
  // digits; a change in a check digit never can.
  it("every change of a check digit of a valid CPF fails", () => {
    fc.assert(
      fc.property(validCpf, fc.integer({ min: 9, max: 10 }), fc.integer({ min: 1, max: 9 }), (cpf, pos, delta) => {
        const changed = cpf.slice(0, pos) + String((Number(cpf[pos]) + delta) % 10) + cpf.slice(pos + 1);
        return !isCpf(changed);
      }),
    );
  });
  it("agrees with the spec's rule on any 11 digits", () => {
    fc.assert(fc.property(digits(11), (d) => isCpf(d) === specCpf(d)));
  });
});

describe("CEP", () => {
  it("needs 8 digits, not all zeros", () => {
    expect(isCep("01310-100")).toBe(true);
    expect(isCep("00000-000")).toBe(false);
    expect(isCep("0131010")).toBe(false);
    expect(isCep("013101000")).toBe(false);
  });
  it("masks as 00000-000, idempotently", () => {
    expect(maskCep("01310100")).toBe("01310-100");
    fc.assert(fc.property(digits(8), (d) => maskCep(maskCep(d)) === maskCep(d) && onlyDigits(maskCep(d)) === d));
  });
});

describe("phone", () => {
  it("follows the spec's rules", () => {
    expect(isPhone("(11) 98765-4321")).toBe(true);
    expect(isPhone("(11) 3456-7890")).toBe(true);
    expect(isPhone("(11) 88765-4321")).toBe(false); // 11 digits need 9 as third digit
    expect(isPhone("(10) 3456-7890")).toBe(false); // area code below 11
    expect(isPhone("(05) 93456-7890")).toBe(false);
    expect(isPhone("11111111111")).toBe(false);
    expect(isPhone("119876543")).toBe(false);
  });
  it("masks 10 and 11 digits and leaves others unchanged", () => {
    expect(maskPhone("1134567890")).toBe("(11) 3456-7890");
    expect(maskPhone("11987654321")).toBe("(11) 98765-4321");
    expect(maskPhone("123")).toBe("123");
    fc.assert(fc.property(fc.oneof(digits(10), digits(11)), (d) => maskPhone(maskPhone(d)) === maskPhone(d)));
  });
  it("valid numbers stay valid once masked", () => {
    fc.assert(fc.property(fc.integer({ min: 11, max: 99 }), digits(8), (area, rest) => isPhone(maskPhone(`${area}9${rest}`))));
  });
});

describe("calendar dates", () => {
  it("accepts real days only", () => {
    expect(isCalendarDate("2016-02-29")).toBe(true);
    expect(isCalendarDate("2015-02-29")).toBe(false);
    expect(isCalendarDate("2015-02-30")).toBe(false);
    expect(isCalendarDate("2015-04-31")).toBe(false);
    expect(isCalendarDate("2015-00-10")).toBe(false);
    expect(isCalendarDate("15-02-10")).toBe(false);
  });

  it("takes 'today' in Brazil, not in UTC", () => {
    // 01:30 UTC on 2 March is still 1 March in São Paulo.
    expect(todayInBrazil(new Date("2025-03-02T01:30:00Z"))).toBe("2025-03-01");
  });
});
