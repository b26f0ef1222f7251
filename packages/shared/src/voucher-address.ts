/** The school desk's page: with `?voucher=CODE` it opens that voucher for the school's approved staff. */
export const VOUCHER_DESK_PATH = "/painel-escola";

/** The address a voucher's QR code encodes: the desk with the code, on the site's public origin (decision 140). */
export const voucherDeskAddress = (origin: string, code: string) => `${origin}${VOUCHER_DESK_PATH}?voucher=${encodeURIComponent(code)}`;

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
