import { z } from "zod";
import { CONTACT_SUBJECTS, LIMITS } from "../constants";
import { formatMessages } from "../messages/common";
import { privacyMessages } from "../messages/privacy";
import { email, text } from "./fields";

/** The contact form of /para-escolas (spec 2 §5). */
export const contactInput = z
  .object({
    subject: z.enum(CONTACT_SUBJECTS, privacyMessages.contactSubjectRequired),
    name: text().trim().min(1, formatMessages.nameRequired).max(LIMITS.nameMax, formatMessages.tooLong(LIMITS.nameMax)),
    email,
    message: text()
      .trim()
      .min(1, privacyMessages.contactMessageRequired)
      .max(LIMITS.contactMessageMax, formatMessages.tooLong(LIMITS.contactMessageMax)),
  })
  .strict();
export type ContactInput = z.infer<typeof contactInput>;
