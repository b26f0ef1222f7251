import { isValidCpf } from "@brazilian-utils/brazilian-utils";

/** Keeps only the digits of a value. */
export const onlyDigits = (value: string): string => value.replace(/\D/g, "");

const allSameDigit = (digits: string): boolean => /^(\d)\1*$/.test(digits);

/** CPF: 11 digits, not all equal, both mod-11 check digits right (spec 1 §5). */
export function isCpf(value: string): boolean {
  const digits = onlyDigits(value);
  return digits.length === 11 && !allSameDigit(digits) && isValidCpf(digits);
}

/** CEP: 8 digits, not all zeros. */
export function isCep(value: string): boolean {
  const digits = onlyDigits(value);
  return digits.length === 8 && digits !== "00000000";
}

/** Phone: 10 or 11 digits, not all equal, area code 11-99, 11-digit numbers have 9 as third digit. */
export function isPhone(value: string): boolean {
  const digits = onlyDigits(value);
  if (digits.length !== 10 && digits.length !== 11) return false;
  if (allSameDigit(digits)) return false;
  const area = Number(digits.slice(0, 2));
  if (area < 11 || area > 99) return false;
  return digits.length === 10 || digits[2] === "9";
}
