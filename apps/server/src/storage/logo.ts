import type { Storage } from "./storage";

/** A school logo's address: an http(s) value as is, otherwise its key in the public school_logos bucket. */
export function logoAddress(storage: Storage, logoUrl: string | null | undefined): string | null {
  if (!logoUrl) return null;
  return /^https?:\/\//i.test(logoUrl) ? logoUrl : storage.publicUrl("school_logos", logoUrl);
}
