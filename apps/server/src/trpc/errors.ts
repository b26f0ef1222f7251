import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { accessMessages, type Toast } from "@elo/shared";
import { ZodRealError } from "zod";

/** A domain error carrying the spec's Portuguese toast; the client shows it as is. */
export class AppError extends TRPCError {
  readonly toast: Toast;
  readonly meta: Record<string, unknown> | undefined;
  constructor(code: TRPC_ERROR_CODE_KEY, toast: Toast | string, meta?: Record<string, unknown>) {
    const t = typeof toast === "string" ? { title: toast } : toast;
    super({ code, message: t.description ? `${t.title}: ${t.description}` : t.title });
    this.toast = t;
    this.meta = meta;
  }
}

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "CONNECTION_ENDED", "CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "57P01", "57P03", "08006", "08001", "08003"]);

/** True when the error means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The quick 503 of a database outage (decision 095), for the context and the procedures alike. */
export function serviceUnavailable(cause: unknown): TRPCError {
  return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: accessMessages.serviceUnavailable, cause });
}

/** The Postgres error code (e.g. 23505) anywhere in the cause chain. */
export function pgErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A validation refusal found by the server itself (e.g. a value that must exist in a table), shaped
 * like a zod input error so the client shows 'Erro de validação' and marks the field.
 */
export function fieldError(field: string, message: string): TRPCError {
  return new TRPCError({ code: "BAD_REQUEST", message, cause: new ZodRealError([{ code: "custom", path: [field], message, input: undefined }]) });
}
