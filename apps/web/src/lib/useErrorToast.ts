import type { Toast } from "@elo/shared";
import { useEffect } from "react";
import { notifyFailure } from "./notify";

/**
 * Shows `fallback` (or the server's toast) once per failure: the effect runs again only when a new
 * error object arrives, so re-renders and retries of a still-failing query do not repeat it.
 */
export function useErrorToast(error: unknown, fallback: Toast) {
  useEffect(() => {
    if (error) notifyFailure(error, fallback);
    // The fallback is a constant of the catalogue; only a new error should toast again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);
}
