import { formatCep, formatCpf } from "@brazilian-utils/brazilian-utils";
import { onlyDigits } from "./validators";

/** 000.000.000-00, for display of a stored CPF. */
export const maskCpf = (value: string): string => formatCpf(onlyDigits(value).slice(0, 11));

/** 00000-000. */
export const maskCep = (value: string): string => formatCep(onlyDigits(value).slice(0, 8));

/** (00) 0000-0000 for 10 digits, (00) 00000-0000 for 11, otherwise unchanged. */
export function maskPhone(value: string): string {
  const d = onlyDigits(value);
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  return value;
}

/** Input patterns for live masking (react-imask syntax). */
export const MASK_PATTERNS = {
  cpf: "000.000.000-00",
  cep: "00000-000",
  phone: [{ mask: "(00) 0000-0000" }, { mask: "(00) 00000-0000" }],
} as const;
