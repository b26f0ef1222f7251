import { adminMessages, CSV_COLUMNS, csvMessages, isCep, isPhone, normalizeKey, onlyDigits, type CsvRawRow, type CsvRowStatus } from "@elo/shared";
import type { ReferenceIndex } from "./reference-index";

/** The school columns a CSV row writes; null means "the file left it empty". */
export interface ResolvedSchool {
  name: string;
  nameKey: string;
  uf: string | null;
  city: string | null;
  neighborhood: string | null;
  stateId: number | null;
  cityId: number | null;
  neighborhoodId: number | null;
  categoryId: number | null;
  modalityId: number | null;
  address: string | null;
  phone: string | null;
  whatsapp: string | null;
  cep: string | null;
}

export interface ResolvedRow {
  status: CsvRowStatus;
  /** Problems that make the row a warning (or invalid). */
  warnings: string[];
  /** Informative notes (an inferred category or UF); they do not change the status. */
  notes: string[];
  school: ResolvedSchool | null;
}

const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * Control characters other than tab and line breaks (a quoted address may span lines): NUL cannot be
 * stored in PostgreSQL text at all, and the others are debris of a broken export, invisible on screen.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const TEXT_COLUMNS = ["name", "categoria", "modalidade", "city", "uf", "neighborhood", "address"] as const;

/**
 * A text cell starting with = + - @ could run as a formula when the data is opened in a spreadsheet
 * later: those leading characters are removed and the row gets a warning.
 */
export function neutraliseFormula(value: string): { value: string; changed: boolean } {
  if (!FORMULA_START.test(value)) return { value, changed: false };
  return { value: value.replace(/^[=+\-@\s]+/, "").trim(), changed: true };
}

/** Phone digits, dropping a +55 country code. */
function phoneDigits(value: string): string {
  const digits = onlyDigits(value);
  return (digits.length === 12 || digits.length === 13) && digits.startsWith("55") ? digits.slice(2) : digits;
}

/** Checks and resolves one CSV row against the reference lists (case- and accent-insensitive). */
export function resolveRow(raw: CsvRawRow, ref: ReferenceIndex): ResolvedRow {
  const controls = CSV_COLUMNS.filter((column) => CONTROL.test(raw[column]));
  if (controls.length) return { status: "invalid", warnings: controls.map(csvMessages.invalidCharacter), notes: [], school: null };
  const warnings: string[] = [];
  const notes: string[] = [];
  const cells = { ...raw };
  for (const column of TEXT_COLUMNS) {
    const { value, changed } = neutraliseFormula(cells[column].trim());
    cells[column] = value;
    if (changed) warnings.push(csvMessages.formulaNeutralised(column));
  }
  const name = cells.name.replace(/\s+/g, " ").trim();
  if (!name) return { status: "invalid", warnings: [adminMessages.csvNameRequired, ...warnings], notes, school: null };

  // State, city, neighborhood.
  let state = cells.uf ? ref.stateByCode.get(cells.uf.toUpperCase()) ?? null : null;
  if (cells.uf && !state) warnings.push(csvMessages.stateNotFound(cells.uf));
  let city = null as ReturnType<ReferenceIndex["cityById"]["get"]> | null;
  if (cells.city) {
    const candidates = ref.citiesByKey.get(normalizeKey(cells.city)) ?? [];
    if (state) {
      city = candidates.find((c) => c.stateId === state!.id) ?? null;
      if (!city && candidates.length) {
        const ufs = candidates.map((c) => ref.stateById.get(c.stateId)?.code).join(", ");
        warnings.push(csvMessages.cityOtherState(cells.city, ufs));
      } else if (!city) warnings.push(csvMessages.cityNotFound(cells.city, state.code));
    } else if (!cells.uf && candidates.length === 1) {
      city = candidates[0]!;
      state = ref.stateById.get(city.stateId) ?? null;
      if (state) notes.push(csvMessages.stateInferred(state.code));
    } else if (!cells.uf) {
      warnings.push(candidates.length ? csvMessages.cityNeedsState(cells.city) : csvMessages.cityNotFound(cells.city, "-"));
    }
  }
  let neighborhood = null as { id: number; name: string; cityId: number } | null;
  if (cells.neighborhood) {
    const candidates = ref.neighborhoodsByKey.get(normalizeKey(cells.neighborhood)) ?? [];
    if (city) {
      neighborhood = candidates.find((n) => n.cityId === city!.id) ?? null;
      if (!neighborhood && candidates.length) {
        const names = [...new Set(candidates.map((n) => ref.cityById.get(n.cityId)?.name))].join(", ");
        warnings.push(csvMessages.neighborhoodOtherCity(cells.neighborhood, names));
      } else if (!neighborhood) warnings.push(csvMessages.neighborhoodNotFound(cells.neighborhood, city.name));
    } else warnings.push(csvMessages.neighborhoodNeedsCity(cells.neighborhood));
  }

  // Category (niche) and modality.
  let category = cells.categoria ? ref.categoryByKey.get(normalizeKey(cells.categoria)) ?? null : null;
  if (cells.categoria && !category) warnings.push(csvMessages.categoryNotFound(cells.categoria));
  let modality = null as { id: number; name: string; categoryId: number } | null;
  if (cells.modalidade) {
    const candidates = ref.modalitiesByKey.get(normalizeKey(cells.modalidade)) ?? [];
    if (category) {
      modality = candidates.find((m) => m.categoryId === category!.id) ?? null;
      if (!modality && candidates.length) warnings.push(csvMessages.modalityOtherCategory(cells.modalidade, category.name));
      else if (!modality) warnings.push(csvMessages.modalityNotFound(cells.modalidade));
    } else if (!cells.categoria) {
      if (candidates.length === 1) {
        modality = candidates[0]!;
        category = ref.categoryById.get(modality.categoryId) ?? null;
        if (category) notes.push(csvMessages.categoryInferred(category.name));
      } else if (candidates.length > 1) warnings.push(csvMessages.modalityAmbiguous(cells.modalidade));
      else warnings.push(csvMessages.modalityNotFound(cells.modalidade));
    } else warnings.push(csvMessages.modalityNotFound(cells.modalidade));
  }

  // Phone, WhatsApp, CEP: stored as digits, so nothing formula-like survives.
  const phone = cells.phone.trim() ? phoneDigits(cells.phone) : null;
  if (phone !== null && !isPhone(phone)) warnings.push(csvMessages.phoneInvalid(cells.phone.trim()));
  const whatsapp = cells.whatsapp.trim() ? phoneDigits(cells.whatsapp) : null;
  if (whatsapp !== null && !isPhone(whatsapp)) warnings.push(csvMessages.whatsappInvalid(cells.whatsapp.trim()));
  const cep = cells.cep.trim() ? onlyDigits(cells.cep) : null;
  if (cep !== null && !isCep(cep)) warnings.push(csvMessages.cepInvalid(cells.cep.trim()));

  return {
    status: warnings.length ? "warning" : "valid",
    warnings,
    notes,
    school: {
      name,
      nameKey: normalizeKey(name),
      uf: state?.code ?? null,
      city: city?.name ?? (cells.city || null),
      neighborhood: neighborhood?.name ?? (cells.neighborhood || null),
      stateId: state?.id ?? null,
      cityId: city?.id ?? null,
      neighborhoodId: neighborhood?.id ?? null,
      categoryId: category?.id ?? null,
      modalityId: modality?.id ?? null,
      address: cells.address || null,
      phone: phone !== null && isPhone(phone) ? phone : null,
      whatsapp: whatsapp !== null && isPhone(whatsapp) ? whatsapp : null,
      cep: cep !== null && isCep(cep) ? cep : null,
    },
  };
}
