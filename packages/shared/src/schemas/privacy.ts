import { z } from "zod";
import { LIMITS } from "../constants";
import { authMessages } from "../messages/auth";
import { privacyMessages } from "../messages/privacy";
import { text } from "./fields";

/** privacy.deleteAccount: the current password, asked again (docs/decisions/104). */
export const deleteAccountInput = z
  .object({ password: text().min(1, privacyMessages.deletePasswordRequired).max(LIMITS.passwordMax, authMessages.passwordMax) })
  .strict();
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;
