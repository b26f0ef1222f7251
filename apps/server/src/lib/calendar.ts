import { validityEndDate, type DiscountValidity } from "@elo/shared";

const isoDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" });

let lastDay = { minute: Number.NaN, day: "" };

/**
 * The calendar day (yyyy-MM-dd) in Brasília time: what "today" means for validity dates. Every
 * marketplace page asks; the day (zone offsets are whole minutes) is formatted once per minute.
 */
export const saoPauloDay = (instant: Date): string => {
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute !== lastDay.minute) lastDay = { minute, day: isoDay.format(instant) };
  return lastDay.day;
};

/** The day `days` after the Brasília calendar day of `instant` (yyyy-MM-dd): a hold's last day (decision 121). */
export const saoPauloDayPlus = (instant: Date, days: number): string => {
  const d = new Date(`${saoPauloDay(instant)}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** Last valid day of a voucher claimed at `claimedAt`, counted on the Brasília calendar. */
export const voucherValidUntil = (validity: DiscountValidity, claimedAt: Date): string =>
  // Noon of the local day keeps month arithmetic on the right calendar date whatever the server's zone.
  validityEndDate(validity, new Date(`${saoPauloDay(claimedAt)}T12:00:00`));

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * Last day an enrollment verification given at `decidedAt` holds (issue 21): the end of February
 * of the following year, on the Brasília calendar (the school year and its enrolment season).
 */
export function verificationValidUntil(decidedAt: Date): string {
  return endOfFebruary(Number(saoPauloDay(decidedAt).slice(0, 4)) + 1);
}

/** 28 or 29 February of `year`, as yyyy-MM-dd. */
export const endOfFebruary = (year: number) => `${year}-02-${isLeap(year) ? 29 : 28}`;
