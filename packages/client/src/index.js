// Plain ESM JavaScript with hand-written types next to it (index.d.ts): Node runs it as is, with no
// build step, and TypeScript sees every procedure of the server's AppRouter.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";

/** Normalises a server address to its tRPC endpoint: "https://x" and "https://x/trpc" both work. */
export function trpcEndpoint(url) {
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
    throw new TypeError(`createEloClient: "url" must be the server's http(s) address, got ${JSON.stringify(url)}`);
  }
  const base = url.replace(/\/+$/, "");
  return base.endsWith("/trpc") ? base : `${base}/trpc`;
}

/** A typed client acting as the owner of `token` (or anonymously without one). */
export function createEloClient({ url, token, fetch, headers } = {}) {
  if (token !== undefined && (typeof token !== "string" || token.trim() === "")) {
    throw new TypeError('createEloClient: "token" must be a non-empty string when given');
  }
  return createTRPCClient({
    links: [
      // httpLink (one request per call) rather than batching: simpler to reason about in scripts,
      // each call counts once against the token's rate limit, and FormData inputs (CSV uploads) work.
      httpLink({
        url: trpcEndpoint(url),
        transformer: superjson,
        fetch,
        headers: () => ({ ...headers, ...(token ? { authorization: `Bearer ${token.trim()}` } : {}) }),
      }),
    ],
  });
}

/** True when `error` came from a procedure call (it then has `data.code` and `data.toast`). */
export function isEloError(error) {
  return error instanceof TRPCClientError;
}

/** The procedure's error code (UNAUTHORIZED, FORBIDDEN, NOT_FOUND, BAD_REQUEST...), or undefined. */
export function errorCode(error) {
  return isEloError(error) ? error.data?.code : undefined;
}

/** The Portuguese message the web app would show for this error: "título: descrição". */
export function errorMessage(error) {
  if (isEloError(error)) {
    const toast = error.data?.toast;
    if (toast?.title) return toast.description ? `${toast.title}: ${toast.description}` : toast.title;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export { TRPCClientError };

export { verifyWebhook, WebhookVerificationError } from "./webhook.js";
