import { uploadMessages, type Toast } from "@elo/shared";

/** A refused upload, carrying the server's Portuguese toast and HTTP status. */
export class UploadFailure extends Error {
  constructor(
    readonly status: number,
    readonly toast: Toast,
  ) {
    super(toast.description ? `${toast.title}: ${toast.description}` : toast.title);
  }
}

/**
 * Sends one file to an upload route of the server (`/api/uploads/...`) with the session cookie
 * (same origin; the browser adds the Origin header). Text `fields` go before the file, as the
 * server reads them. Resolves with the route's JSON; rejects with `UploadFailure`.
 *
 * @example
 * const { avatarUrl } = await uploadFile<{ avatarUrl: string }>("/api/uploads/avatar", file);
 */
export async function uploadFile<T = unknown>(path: string, file: File | Blob, fields: Record<string, string> = {}): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", file);
  let res: Response;
  try {
    res = await fetch(path, { method: "POST", body: form, credentials: "same-origin" });
  } catch {
    throw new UploadFailure(0, { title: uploadMessages.uploadFailed });
  }
  const body = (await res.json().catch(() => null)) as { error?: Toast } | null;
  if (!res.ok) throw new UploadFailure(res.status, body?.error?.title ? body.error : { title: uploadMessages.uploadFailed });
  return body as T;
}

/** Shows a file size in MB for labels and client-side checks. */
export const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));
