import { adminMessages, LIMITS, normalizeKey, type CsvRawRow, type CsvRowStatus } from "@elo/shared";
import { AppError } from "../../../trpc/errors";
import type { AdminCtx } from "../admin.types";
import { loadExistingSchools, matchExisting } from "./existing-schools";
import { CsvReadError, decodeUtf8, parseSchoolsCsv } from "./parse-csv";
import { loadReferenceIndex } from "./reference-index";
import { resolveRow } from "./resolve-row";

export interface CsvPreviewRow extends CsvRawRow {
  status: CsvRowStatus;
  message: string;
  /** Invalid rows and later duplicates of a name cannot be imported. */
  selectable: boolean;
}

/** Reads the chosen file and tells, row by row, what an import would do. */
export async function csvPreviewHandler({ ctx, input }: { ctx: AdminCtx; input: FormData }) {
  const file = input.get("file");
  if (!(file instanceof Blob)) throw new AppError("BAD_REQUEST", adminMessages.csvNotCsv);
  const fileName = file instanceof File ? file.name : String(input.get("fileName") ?? "");
  if (!fileName.toLowerCase().endsWith(".csv")) throw new AppError("BAD_REQUEST", adminMessages.csvNotCsv);
  if (file.size > LIMITS.csvMaxBytes) throw new AppError("BAD_REQUEST", adminMessages.csvTooLarge);

  let parsed;
  try {
    parsed = parseSchoolsCsv(decodeUtf8(new Uint8Array(await file.arrayBuffer())));
  } catch (error) {
    if (error instanceof CsvReadError) throw new AppError("BAD_REQUEST", adminMessages.csvParseError(error.message));
    throw error;
  }
  if (!parsed.rows.length) throw new AppError("BAD_REQUEST", { title: adminMessages.csvEmptyTitle, description: adminMessages.csvEmptyDescription });
  return { ...(await previewRows(ctx, parsed.rows)), truncated: parsed.truncated };
}

/** Resolves rows and marks duplicates and existing schools. */
export async function previewRows(ctx: Pick<AdminCtx, "db">, rows: CsvRawRow[]) {
  const ref = await loadReferenceIndex(ctx.db, new Set(rows.map((r) => normalizeKey(r.city)).filter(Boolean)));
  const resolved = rows.map((row) => ({ row, result: resolveRow(row, ref) }));
  const existing = await loadExistingSchools(ctx.db, resolved.flatMap(({ result }) => (result.school ? [result.school.nameKey] : [])));
  const firstByKey = new Set<string>();
  const counts = { valid: 0, warning: 0, invalid: 0 };
  const out: CsvPreviewRow[] = resolved.map(({ row, result }) => {
    const warnings = [...result.warnings];
    let selectable = result.status !== "invalid";
    if (result.school) {
      if (firstByKey.has(result.school.nameKey)) {
        warnings.unshift(adminMessages.csvDuplicateName);
        selectable = false;
      } else {
        firstByKey.add(result.school.nameKey);
        if (matchExisting(existing.get(result.school.nameKey), result.school.cityId)) warnings.unshift(adminMessages.csvExistingSchool);
      }
    }
    const status: CsvRowStatus = result.status === "invalid" ? "invalid" : warnings.length ? "warning" : "valid";
    counts[status]++;
    return { ...row, status, message: [...warnings, ...result.notes].join("; "), selectable };
  });
  return { rows: out, counts };
}
