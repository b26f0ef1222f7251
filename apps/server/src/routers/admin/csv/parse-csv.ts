import { CSV_COLUMNS, csvMessages, LIMITS, normalizeKey, type CsvColumn, type CsvRawRow } from "@elo/shared";
import { CsvError, parse } from "csv-parse/sync";

/** Why a CSV could not be read at all (shown as 'Erro ao processar CSV: {reason}'). */
export class CsvReadError extends Error {}

export interface ParsedCsv {
  rows: CsvRawRow[];
  /** The file had more than 500 data rows; only the first 500 are kept. */
  truncated: boolean;
}

/** Header spellings accepted for each template column (compared with `normalizeKey`). */
const HEADER_ALIASES: Record<CsvColumn, readonly string[]> = {
  name: ["name", "nome", "escola", "nome da escola"],
  categoria: ["categoria", "category", "nicho"],
  modalidade: ["modalidade", "modality"],
  city: ["city", "cidade", "municipio"],
  uf: ["uf", "estado", "state"],
  neighborhood: ["neighborhood", "bairro"],
  address: ["address", "endereco"],
  phone: ["phone", "telefone", "fone"],
  whatsapp: ["whatsapp", "celular"],
  cep: ["cep", "zip", "zipcode"],
};
const headerToColumn = new Map<string, CsvColumn>(
  CSV_COLUMNS.flatMap((column) => HEADER_ALIASES[column].map((alias) => [alias, column] as const)),
);

/** Decodes bytes as UTF-8 (a byte-order mark is dropped); anything else is refused. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CsvReadError(csvMessages.notUtf8);
  }
}

/** Comma or semicolon: whichever appears more often outside quotes in the first line. */
export function detectDelimiter(text: string): "," | ";" {
  let inQuotes = false;
  let commas = 0;
  let semicolons = 0;
  for (const ch of text) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === "\n" || ch === "\r")) break;
    else if (!inQuotes && ch === ",") commas++;
    else if (!inQuotes && ch === ";") semicolons++;
  }
  return semicolons > commas ? ";" : ",";
}

function readableReason(error: CsvError, headerLength: () => number): string {
  const line = Number((error as unknown as { lines?: number }).lines ?? 0);
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return csvMessages.quoteNotClosed(line);
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
      return csvMessages.invalidQuote(line);
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH": {
      const record = (error as unknown as { record?: unknown[] }).record ?? [];
      return csvMessages.columnCount(line, record.length, headerLength());
    }
    default:
      return csvMessages.malformed(line);
  }
}

/**
 * Reads a CSV (UTF-8 with or without BOM, comma or semicolon, header row naming the columns,
 * empty lines skipped) into raw rows numbered from 1. Throws CsvReadError on any parse error.
 */
export function parseSchoolsCsv(text: string): ParsedCsv {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return { rows: [], truncated: false };
  let records: string[][];
  const delimiter = detectDelimiter(body);
  try {
    // A header of thousands of cells would make every row that wide: refuse it before the rows are parsed.
    const headerCells = (parse(body, { delimiter, bom: true, to: 1, relax_column_count: true }) as string[][])[0]?.length ?? 0;
    if (headerCells > LIMITS.csvMaxColumns) throw new CsvReadError(csvMessages.tooManyColumns(headerCells, LIMITS.csvMaxColumns));
    records = parse(body, {
      delimiter,
      bom: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_quotes: false,
      trim: true,
      // One past the limit tells us the file was longer than allowed.
      to: LIMITS.csvMaxRows + 2,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const headerLength = () => (parse(body, { delimiter, bom: true, to: 1 }) as string[][])[0]?.length ?? 0;
      throw new CsvReadError(readableReason(error, headerLength));
    }
    throw error;
  }
  const [header, ...data] = records;
  if (!header) return { rows: [], truncated: false };
  const columns = header.map((h) => headerToColumn.get(normalizeKey(h)) ?? null);
  if (!columns.includes("name")) throw new CsvReadError(csvMessages.missingNameColumn);
  const seen = new Set<CsvColumn>();
  for (const c of columns) {
    if (c && seen.has(c)) throw new CsvReadError(csvMessages.duplicateColumn(c));
    if (c) seen.add(c);
  }
  const truncated = data.length > LIMITS.csvMaxRows;
  const rows = data.slice(0, LIMITS.csvMaxRows).map((record, i) => {
    const row: CsvRawRow = { index: i + 1, name: "", categoria: "", modalidade: "", city: "", uf: "", neighborhood: "", address: "", phone: "", whatsapp: "", cep: "" };
    record.forEach((value, col) => {
      const column = columns[col];
      if (column) row[column] = value.slice(0, 500);
    });
    return row;
  });
  return { rows, truncated };
}
