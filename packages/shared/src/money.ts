/**
 * Money in one place for the server and the web: amounts travel and are stored in reais with at most
 * two decimals (numeric(10,2) columns), and every computation runs on whole centavos, so the browser's
 * preview, the stored discounted fee and the voucher agree to the centavo (decision 109).
 */

const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const decimal = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Hundredths of `value` as an integer: centavos of an amount in reais, basis points of a percentage. */
export const toHundredths = (value: number): number => Math.round(value * 100);

/** An amount in reais as whole centavos (the value must already have at most two decimals). */
export const toCents = toHundredths;

/** Whole centavos back to reais. */
export const fromCents = (cents: number): number => cents / 100;

/**
 * True for a finite number with at most two decimals: 100.01 is, 100.005, 0.001 and 1e-7 are not
 * (numeric(10,2) would silently round them). Exact for every amount the product accepts: below
 * 2^53 / 100, `n / 100` is the double nearest to the decimal n/100, the same one the literal parses to.
 */
export const hasAtMostTwoDecimals = (value: number): boolean => Number.isFinite(value) && toHundredths(value) / 100 === value;

/**
 * The monthly fee after a discount, in centavos: fee × (100% − percentage), half a centavo rounded up.
 * `percentBasisPoints` is the percentage in hundredths (12.5% = 1250). Integer arithmetic only: the
 * product stays below 2^53 for fees up to R$ 99.999.999,99.
 */
export function discountedCents(feeCents: number, percentBasisPoints: number): number {
  const scaled = feeCents * (10_000 - percentBasisPoints);
  const remainder = scaled % 10_000;
  return (scaled - remainder) / 10_000 + (remainder >= 5_000 ? 1 : 0);
}

/** The discounted fee in reais for a fee in reais and a percentage, both with at most two decimals. */
export const discountedFee = (monthlyFee: number, percentage: number): number =>
  fromCents(discountedCents(toCents(monthlyFee), toHundredths(percentage)));

/** R$ 1.234,56 (with a normal space after R$). */
export const formatBRL = (value: number): string => brl.format(value).replace(/\u00a0/g, " ");

/** 1.234,56 */
export const formatDecimal = (value: number): string => decimal.format(value);

/** How a typed amount reads: a number of reais, `too_precise` past two decimals, or `invalid`. */
export function readBRL(value: string): number | "too_precise" | "invalid" {
  const cleaned = value.replace(/[R$\s.]/g, "").replace(",", ".");
  if (/^\d+\.\d{3,}$/.test(cleaned)) return "too_precise";
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return "invalid";
  return Number(cleaned);
}

/** Reads "1.234,56", "1234,5" or "1234" as a number; NaN when it is not one (or has more than two decimals). */
export function parseBRL(value: string): number {
  const read = readBRL(value);
  return typeof read === "number" ? read : Number.NaN;
}
