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
