// Formatting for the scripts' output (pt-BR).

const dateFormat = new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo" });
const money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/**
 * dd/MM/yyyy for a Date, or for a "yyyy-MM-dd" calendar date (kept as is, no time zone shift).
 * @param {Date | string | null | undefined} value
 */
export function formatDate(value) {
  if (!value) return "-";
  if (typeof value === "string") {
    const [y, m, d] = value.slice(0, 10).split("-");
    return `${d}/${m}/${y}`;
  }
  return dateFormat.format(value);
}

/** @param {number} value */
export const formatBRL = (value) => money.format(value).replace(/\u00a0/g, " ");
