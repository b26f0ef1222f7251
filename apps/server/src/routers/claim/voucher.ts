import { randomInt } from "node:crypto";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A fresh voucher code NNNN-LLLL (1000-9999, four capital letters) from the system's CSPRNG. */
export function generateVoucherCode(): string {
  let letters = "";
  for (let i = 0; i < 4; i++) letters += LETTERS[randomInt(0, LETTERS.length)];
  return `${randomInt(1000, 10000)}-${letters}`;
}
