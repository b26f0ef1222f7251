/** The school desk's page: with `?voucher=CODE` it opens that voucher for the school's approved staff. */
export const VOUCHER_DESK_PATH = "/painel-escola";

/** The address a voucher's QR code encodes: the desk with the code, on the site's public origin (decision 140). */
export const voucherDeskAddress = (origin: string, code: string) => `${origin}${VOUCHER_DESK_PATH}?voucher=${encodeURIComponent(code)}`;
