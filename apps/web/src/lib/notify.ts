import { accessMessages, type Toast } from "@elo/shared";
import { TRPCClientError } from "@trpc/client";

/**
 * Toasts load with the notifications package on first use, keeping it out of the first-load
 * JavaScript (docs/decisions/082-first-load-budget.md); the container in main.tsx loads the same chunk.
 * One toast at a time (spec 1 §9): the newest replaces whatever is showing or queued.
 */
function show(title: string, message: string, color: string, id?: string) {
  void import("@mantine/notifications").then(({ notifications }) => {
    notifications.clean();
    notifications.show({ id, title, message, color });
  });
}

/** A success toast; give it an `id` to close it with `closeToast` once what it announces has happened. */
export function notifyOk(toast: Toast | string, options: { id?: string } = {}) {
  const t = typeof toast === "string" ? { title: toast } : toast;
  show(t.title, t.description ?? "", "teal", options.id);
}

/** Closes the toast shown with this id (if it is still on screen). */
export function closeToast(id: string) {
  void import("@mantine/notifications").then(({ notifications }) => notifications.hide(id));
}

/** A destructive toast. */
export function notifyError(toast: Toast | string) {
  const t = typeof toast === "string" ? { title: toast } : toast;
  show(t.title, t.description ?? "", "red");
}

/** The server's Portuguese toast for an error, or the fallback. */
export function errorToast(error: unknown, fallback: Toast): Toast {
  if (error instanceof TRPCClientError) {
    const toast = (error.data as { toast?: Toast } | undefined)?.toast;
    if (toast?.title) return toast;
    if (error.data?.httpStatus === 429) return { title: accessMessages.tooManyRequests };
  }
  return fallback;
}

/** Shows the server's toast for an error, or the fallback. */
export function notifyFailure(error: unknown, fallback: Toast) {
  notifyError(errorToast(error, fallback));
}

/** The server's field errors (zod), keyed by field name. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const fe = (error.data as { fieldErrors?: Record<string, string[] | undefined> } | undefined)?.fieldErrors ?? {};
  return Object.fromEntries(Object.entries(fe).flatMap(([k, v]) => (v?.[0] ? [[k, v[0]]] : [])));
}

/** The error's tRPC code (UNAUTHORIZED, FORBIDDEN, NOT_FOUND...). */
export const errorCode = (error: unknown): string | undefined =>
  error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
