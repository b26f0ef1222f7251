import type { AppRouter, inferRouterInputs, inferRouterOutputs } from "@elo/server";
import type { TRPCClient, TRPCClientError } from "@trpc/client";

export type { AppRouter };
export { TRPCClientError } from "@trpc/client";

/** Every procedure of the server, typed: `client.marketplace.list.query()`. */
export type EloClient = TRPCClient<AppRouter>;
/** Inputs by procedure path: `EloInputs["school"]["vouchers"]["confirm"]`. */
export type EloInputs = inferRouterInputs<AppRouter>;
/** Outputs by procedure path: `EloOutputs["marketplace"]["list"]`. */
export type EloOutputs = inferRouterOutputs<AppRouter>;

/** An error thrown by a procedure call, with the server's error shape. */
export type EloError = TRPCClientError<AppRouter>;
/** What `error.data` holds: `code`, `httpStatus`, `path`, `toast` (the Portuguese message), `fieldErrors`. */
export type EloErrorData = NonNullable<EloError["data"]>;
/** UNAUTHORIZED, FORBIDDEN, NOT_FOUND, BAD_REQUEST, CONFLICT, TOO_MANY_REQUESTS... */
export type EloErrorCode = EloErrorData["code"];

export interface EloClientOptions {
  /** The server's address, e.g. "https://eloescolar.com.br" (with or without "/trpc"). */
  url: string;
  /** A personal API token created on /meus-dados ("elo_..."). Omit it for public procedures. */
  token?: string;
  /** A fetch implementation (defaults to the global one; Node 20+ has it). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** A typed client acting as the owner of `token`, with exactly that user's rights. */
export function createEloClient(options: EloClientOptions): EloClient;
/** The tRPC endpoint for a server address. */
export function trpcEndpoint(url: string): string;
/** True when `error` came from a procedure call; narrows it to {@link EloError}. */
export function isEloError(error: unknown): error is EloError;
/** The procedure's error code, or undefined for other errors (network, programming). */
export function errorCode(error: unknown): EloErrorCode | undefined;
/** The Portuguese message the web app would show for this error ("título: descrição"). */
export function errorMessage(error: unknown): string;

// ─── Webhooks: the receiving half (issue 29) ─────────────────────────────────

/** What the school's desk sees of a voucher; every voucher.* event carries it. */
export interface WebhookVoucher {
  id: string;
  voucherCode: string;
  status: "reservado" | "utilizado" | "expirado" | "cancelado";
  claimedAt: string;
  validUntil: string;
  redeemedAt: string | null;
  endedAt: string | null;
  cancelReason: string | null;
  cancelledByParent: boolean;
  redeemedByName: string | null;
  studentName: string | null;
  parentName: string | null;
  className: string;
  discountPercentage: number;
  monthlyFee: number;
  discountedFee: number;
}

export interface WebhookBenefitSoldOut {
  id: string;
  className: string;
  numberOfStudents: 0;
  status: "active" | "paused";
  monthlyFee: number;
  discountPercentage: number;
  discountedFee: number;
  discountValidity: string;
}

/** Counts only: the school learns who is waiting only when a family claims. */
export interface WebhookWaitlistOffered {
  discountId: string;
  className: string;
  status: "active" | "paused";
  waiting: number;
  offered: number;
}

export interface WebhookVerificationRequested {
  id: string;
  main: boolean;
  status: "enviado";
  parentName: string | null;
  studentName: string | null;
  declaredClass: string | null;
  submittedAt: string;
}

export interface WebhookEventData {
  "voucher.reserved": WebhookVoucher;
  "voucher.used": WebhookVoucher;
  "voucher.cancelled": WebhookVoucher;
  "voucher.expired": WebhookVoucher;
  "voucher.given_up": WebhookVoucher;
  "waitlist.offered": WebhookWaitlistOffered;
  "benefit.sold_out": WebhookBenefitSoldOut;
  "enrollment.verification_requested": WebhookVerificationRequested;
  ping: { endpointId: string; url: string };
}

export type WebhookEventType = keyof WebhookEventData;

/** One verified delivery: `id` is the webhook-id (the same on retries and 'Reenviar': use it to skip duplicates). */
export type WebhookEvent = { [T in WebhookEventType]: { id: string; type: T; timestamp: string; data: WebhookEventData[T] } }[WebhookEventType];

export interface VerifyWebhookOptions {
  /** How far webhook-timestamp may be from now (default 300 s). */
  toleranceSeconds?: number;
  /** Now, in ms (tests). */
  now?: number;
}

export class WebhookVerificationError extends Error {}

/**
 * Verifies a delivery's signature (HMAC-SHA256, Standard Webhooks) and timestamp, and returns its
 * typed event; throws WebhookVerificationError when altered, stale or signed with another secret.
 * `body`: the raw request body exactly as received.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined> | { get(name: string): string | null },
  body: string | Uint8Array,
  options?: VerifyWebhookOptions,
): WebhookEvent;
