import { z } from "zod";
import { text } from "./fields";
import { apiTokenMessages } from "../messages/apiTokens";

/** Expiry choices offered for a new token, in days; null = no expiry. */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
/** At most this many active (not revoked, not expired) tokens per user. */
export const API_TOKEN_MAX_ACTIVE = 20;

export const createApiTokenInput = z
  .object({
    name: text().trim().min(1, apiTokenMessages.nameRequired).max(100, apiTokenMessages.nameTooLong),
    expiresInDays: z.union([z.literal(30), z.literal(90), z.literal(365)]).nullable().default(null),
  })
  .strict();
export type CreateApiTokenInput = z.input<typeof createApiTokenInput>;

export const revokeApiTokenInput = z.object({ id: z.uuid() }).strict();
