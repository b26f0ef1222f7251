import { z } from "zod";
import { LIMITS } from "../constants";
import { formatMessages } from "../messages/common";
import { isCep, isCpf, isPhone, onlyDigits } from "../validators";

// zod's own messages (wrong type, unknown key) in Brazilian Portuguese, on the server and in the browser.
z.config(z.locales.ptBR());

/**
 * Every text input: PostgreSQL cannot store U+0000 in text, so it is refused here with a clear
 * message instead of failing in the database as a 500.
 */
export const text = () => z.string().refine((v) => !v.includes("\u0000"), formatMessages.invalidCharacter);

/** Trimmed text; empty becomes null. */
export const optionalText = (max = 255) =>
  text()
    .trim()
    .max(max, formatMessages.tooLong(max))
    .transform((v) => (v === "" ? null : v))
    .nullish()
    .transform((v) => v ?? null);

export const email = text().trim().toLowerCase().max(LIMITS.emailMax, formatMessages.emailInvalid).pipe(z.email(formatMessages.emailInvalid));

/** Optional CPF stored as 11 digits. */
export const optionalCpf = optionalText(14).refine((v) => v === null || isCpf(v), formatMessages.cpfInvalid).transform((v) => (v ? onlyDigits(v) : null));
/** Optional CEP stored as 8 digits. */
export const optionalCep = optionalText(9).refine((v) => v === null || isCep(v), formatMessages.cepInvalid).transform((v) => (v ? onlyDigits(v) : null));
/** Optional phone stored as 10 or 11 digits. */
export const optionalPhone = optionalText(20).refine((v) => v === null || isPhone(v), formatMessages.phoneInvalid).transform((v) => (v ? onlyDigits(v) : null));

export const uuid = z.uuid();
export const id = z.number().int().positive();
export const isoDate = text().regex(/^\d{4}-\d{2}-\d{2}$/, "Data inválida");
