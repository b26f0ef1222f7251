import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat.js";
import { DISCOUNT_VALIDITY_MONTHS, type DiscountValidity } from "./constants";

// dayjs apart from format.ts: a page that only formats dates (Intl) does not load it (decision 082).

dayjs.extend(customParseFormat);

/** A date typed as dd/mm/aaaa (or its eight digits) as yyyy-MM-dd; null when it is not a day of the calendar. */
export function parseDateBR(text: string): string | null {
  const day = dayjs(text.trim(), ["DD/MM/YYYY", "DDMMYYYY"], true);
  return day.isValid() ? day.format("YYYY-MM-DD") : null;
}

/** Last day a voucher is valid (yyyy-MM-dd), counted from the claim date. */
export function validityEndDate(validity: DiscountValidity, claimedAt: Date): string {
  const months = DISCOUNT_VALIDITY_MONTHS[validity];
  const start = dayjs(claimedAt);
  const end = months === null ? start.endOf("year") : start.add(months, "month");
  return end.format("YYYY-MM-DD");
}
