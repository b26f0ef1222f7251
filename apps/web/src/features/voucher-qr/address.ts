import { VOUCHER_DESK_PATH } from "@elo/shared";

/**
 * The voucher code a scanned text carries when it is this site's desk address (same origin, the desk's
 * path, a well-formed code), as NNNN-LLLL; null for anything else (another site, another page, plain text).
 */
export function voucherCodeFromAddress(text: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname.replace(/\/$/, "") !== VOUCHER_DESK_PATH) return null;
  const found = /^(\d{4})-?([A-Z]{4})$/.exec((url.searchParams.get("voucher") ?? "").trim().toUpperCase());
  return found ? `${found[1]}-${found[2]}` : null;
}
