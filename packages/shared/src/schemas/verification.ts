import { z } from "zod";
import { LIMITS, PROOF_REFUSAL_REASONS } from "../constants";
import { verificationMessages } from "../messages/verification";
import { accessLogMessages, ADMIN_ACCESS_PURPOSES } from "../messages/access-log";
import { optionalText, uuid } from "./fields";

/** One enrollment proof: open it, or confirm it. */
export const proofIdInput = z.object({ id: uuid }).strict();

/** 'Recusar': a reason from the short list; 'outro' needs a text. */
export const proofRefuseInput = z
  .object({
    id: uuid,
    reason: z.enum(PROOF_REFUSAL_REASONS, verificationMessages.reasonRequired),
    note: optionalText(LIMITS.proofRefusalNoteMax),
  })
  .strict()
  .refine((v) => v.reason !== "outro" || !!v.note, { message: verificationMessages.noteRequired, path: ["note"] });
export type ProofRefuseInput = z.input<typeof proofRefuseInput>;

/** The administrator's queue: schools without staff in the network (default), or every school. */
export const adminProofQueueInput = z
  .object({ scope: z.enum(["unstaffed", "all"]).default("unstaffed") })
  .strict()
  .optional();

/** An administrator opens a proof (or a parent's page) only with a stated purpose; support needs its ticket (issue 27). */
export const adminAccessPurposeInput = {
  purpose: z.enum(ADMIN_ACCESS_PURPOSES, accessLogMessages.purposeRequired),
  ticket: optionalText(40).pipe(z.string().regex(/^[\p{L}\p{N}./#-]+$/u, accessLogMessages.ticketInvalid).nullable()).optional(),
};
const ticketWhenSupport = (v: { purpose: string; ticket?: string | null }) => v.purpose !== "suporte" || !!v.ticket;
export const adminProofOpenInput = z
  .object({ id: uuid, ...adminAccessPurposeInput })
  .strict()
  .refine(ticketWhenSupport, { message: accessLogMessages.ticketRequired, path: ["ticket"] });
export type AdminProofOpenInput = z.input<typeof adminProofOpenInput>;
