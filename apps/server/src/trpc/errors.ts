import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { accessMessages, LIMITS, type Toast } from "@elo/shared";
import { ZodError, ZodRealError } from "zod";

/** tRPC's own (English) text for a batch over `maxBatchSize`; a test notices if an upgrade rewords it. */
const TRPC_BATCH_TOO_LARGE = "Batch call exceeds maximum size";

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

/**
 * tRPC's own refusals (bad JSON, no such procedure, wrong method or content type) say it in English;
 * the caller reads it in Portuguese like every other error (decision 223). Null for anything else.
 */
export function routerRefusal(error: TRPCError, path: string | undefined): string | null {
  if (error instanceof AppError || error.cause instanceof ZodError) return null;
  switch (error.code) {
    case "PARSE_ERROR":
      return accessMessages.unreadableRequest;
    // A body or `input` that is not JSON fails inside the call, as BAD_REQUEST caused by JSON.parse.
    case "BAD_REQUEST":
      if (error.cause instanceof SyntaxError) return accessMessages.unreadableRequest;
      return error.message === TRPC_BATCH_TOO_LARGE ? accessMessages.batchTooLarge(LIMITS.batchMaxCalls) : accessMessages.badRequest;
    case "NOT_FOUND":
      return accessMessages.unknownProcedure(path ?? "");
    case "METHOD_NOT_SUPPORTED":
      return accessMessages.wrongMethod;
    case "UNSUPPORTED_MEDIA_TYPE":
      return accessMessages.unsupportedContentType;
    default:
      return null;
  }
}
