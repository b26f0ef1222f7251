
const shortDate = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "America/Sao_Paulo" });
const longDate = new Intl.DateTimeFormat("pt-BR", { day: "numeric", month: "long", year: "numeric", timeZone: "America/Sao_Paulo" });

const toDate = (value: Date | string): Date =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00-03:00`) : new Date(value);

/** dd/MM/yyyy in Brasília time. */
export const formatDate = (value: Date | string): string => shortDate.format(toDate(value));

const dateTime = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" });

/** "dd/MM/yyyy às HH:mm" in Brasília time (a waitlist offer's deadline). */
export const formatDateTime = (value: Date | string): string => {
  const parts = Object.fromEntries(dateTime.formatToParts(new Date(value)).map((p) => [p.type, p.value]));
  return `${parts.day}/${parts.month}/${parts.year} às ${parts.hour}:${parts.minute}`;
};

/** "22 de novembro de 2026". */
export const formatLongDate = (value: Date | string): string => longDate.format(toDate(value));


/** Lower-case, accent-free, single-spaced text: the key for name matching. */
export const normalizeKey = (value: string): string =>
  value.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

const ptBRCollator = new Intl.Collator("pt-BR", { sensitivity: "base", numeric: true });

/**
 * Dictionary order for Brazilian names ('Águas de Lindóia' next to 'Aguaí', not after 'Z'). Done in
 * JavaScript because PGlite has no ICU collations and the C collation sorts accents last.
 */
export const comparePtBR = (a: string, b: string): number => ptBRCollator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** A copy of `rows` sorted by `name` in pt-BR dictionary order. */
export const sortByNamePtBR = <T extends { name: string }>(rows: readonly T[]): T[] => [...rows].sort((a, b) => comparePtBR(a.name, b.name));
