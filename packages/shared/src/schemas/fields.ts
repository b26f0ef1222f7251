import { z } from "zod";
import { LIMITS } from "../constants";
import { formatMessages } from "../messages/common";
import { hasAtMostTwoDecimals } from "../money";
import { isCep, isCpf, isPhone, onlyDigits } from "../validators";

// zod's own messages (wrong type, unknown key) in Brazilian Portuguese, on the server and in the browser.
z.config(z.locales.ptBR());

/**
 * Every text input: PostgreSQL cannot store U+0000 in text, so it is refused here with a clear
 * message instead of failing in the database as a 500.
 */
export const text = () => z.string().refine((v) => !v.includes("\u0000"), formatMessages.invalidCharacter);

/** Trimmed text; empty becomes null. */
export const optionalText = (max = 255) =>
  text()
    .trim()
    .max(max, formatMessages.tooLong(max))
    .transform((v) => (v === "" ? null : v))
    .nullish()
    .transform((v) => v ?? null);

export const email = text().trim().toLowerCase().max(LIMITS.emailMax, formatMessages.emailInvalid).pipe(z.email(formatMessages.emailInvalid));

/** Optional CPF stored as 11 digits. */
export const optionalCpf = optionalText(14).refine((v) => v === null || isCpf(v), formatMessages.cpfInvalid).transform((v) => (v ? onlyDigits(v) : null));
/** Optional CEP stored as 8 digits. */
export const optionalCep = optionalText(9).refine((v) => v === null || isCep(v), formatMessages.cepInvalid).transform((v) => (v ? onlyDigits(v) : null));
/** Optional phone stored as 10 or 11 digits. */
export const optionalPhone = optionalText(20).refine((v) => v === null || isPhone(v), formatMessages.phoneInvalid).transform((v) => (v ? onlyDigits(v) : null));

/**
 * A number with at most two decimals (a fee in reais, a percentage): numeric(…,2) columns would
 * otherwise round 0.001 to 0.00 and 100.005 to 100.01 without a word (decision 109).
 */
export const twoDecimals = (required: string, tooPrecise: string) => z.number(required).refine(hasAtMostTwoDecimals, tooPrecise);

export const uuid = z.uuid();
/** PostgreSQL `integer` ids: a larger number would fail in the database, not in validation. */
export const PG_INT_MAX = 2_147_483_647;
export const id = z.number().int().positive().max(PG_INT_MAX);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (2015-02-30 and 2015-13-01 are not). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const isoDay = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "America/Sao_Paulo" });
/** Today as YYYY-MM-DD in Brazil (where the product's users are), so "today" does not flip at 21:00. */
export const todayInBrazil = (now = new Date()) => isoDay.format(now);

/**
 * A calendar day YYYY-MM-DD; anything else (including impossible days, which the database would
 * refuse with a 500) fails with `message`, the field's Portuguese text.
 */
export const calendarDate = (message: string = formatMessages.dateInvalid) => z.string().trim().regex(ISO_DATE, { message, abort: true }).refine(isCalendarDate, { message, abort: true });

export const isoDate = calendarDate();
