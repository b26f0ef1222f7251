import { z } from "zod";
import { LIMITS, PROOF_REFUSAL_REASONS } from "../constants";
import { verificationMessages } from "../messages/verification";
import { accessLogMessages, ADMIN_ACCESS_PURPOSES } from "../messages/access-log";
import { optionalText, text, uuid } from "./fields";

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
export const ticketWhenSupport = (v: { purpose: string; ticket?: string | null }) => v.purpose !== "suporte" || !!v.ticket;
export const adminProofOpenInput = z
  .object({ id: uuid, ...adminAccessPurposeInput })
  .strict()
  .refine(ticketWhenSupport, { message: accessLogMessages.ticketRequired, path: ["ticket"] });
export type AdminProofOpenInput = z.input<typeof adminProofOpenInput>;

/**
 * A date of the incident register: a real date between 2000 and 2100. An out-of-range one (year
 * 199816, which JavaScript writes as "+199816-...") is refused here, not by PostgreSQL with a 500.
 */
const incidentDate = () =>
  z.coerce
    .date(accessLogMessages.incidentDateInvalid)
    .min(new Date("2000-01-01T00:00:00Z"), accessLogMessages.incidentDateInvalid)
    .max(new Date("2100-01-01T00:00:00Z"), accessLogMessages.incidentDateInvalid);

const COUNT_MAX = 10_000_000;
const badCount = accessLogMessages.incidentCountInvalid(COUNT_MAX);
/** How many accounts or children an incident reached: a whole number, refused in Portuguese otherwise. */
const affectedCount = () => z.number(badCount).int(badCount).min(0, badCount).max(COUNT_MAX, badCount);

/** A security incident for the register (Resolução CD/ANPD 15/2024, issue 27). */
export const incidentInput = z
  .object({
    title: text().trim().min(3, accessLogMessages.incidentTitleRequired).max(200, accessLogMessages.incidentTooLong(200)),
    detectedAt: incidentDate(),
    windowFrom: incidentDate(),
    windowTo: incidentDate(),
    schoolId: uuid.nullable().default(null),
    nature: text().trim().min(3, accessLogMessages.incidentNatureRequired).max(2000, accessLogMessages.incidentTooLong(2000)),
    accountsAffected: affectedCount(),
    childrenAffected: affectedCount(),
    measures: text().trim().min(3, accessLogMessages.incidentMeasuresRequired).max(4000, accessLogMessages.incidentTooLong(4000)),
    communicatedAt: incidentDate().nullable().default(null),
  })
  .strict()
  .refine((v) => v.windowTo > v.windowFrom, { message: accessLogMessages.incidentWindowInvalid, path: ["windowTo"] });
export type IncidentInput = z.input<typeof incidentInput>;

export const INCIDENT_STATUSES = ["aberto", "contido", "encerrado"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
const longText = (max: number) => text().trim().min(1, accessLogMessages.incidentFieldEmpty).max(max, accessLogMessages.incidentTooLong(max));
/**
 * An edit of a recorded incident (issue 27, decision 195): only the fields given change; each edit is
 * appended to the incident's history. Dates may be cleared with null.
 */
export const incidentUpdateFields = z
  .object({
    status: z.enum(INCIDENT_STATUSES, accessLogMessages.incidentStatusInvalid).optional(),
    nature: longText(2000).optional(),
    accountsAffected: affectedCount().optional(),
    childrenAffected: affectedCount().optional(),
    measures: longText(4000).optional(),
    risks: longText(4000).nullable().optional(),
    delayReason: longText(4000).nullable().optional(),
    anpdCommunicatedAt: incidentDate().nullable().optional(),
    holdersCommunicatedAt: incidentDate().nullable().optional(),
  })
  .strict();
export type IncidentUpdateFields = z.output<typeof incidentUpdateFields>;
export const incidentUpdateInput = z
  .object({ id: uuid, changes: incidentUpdateFields })
  .strict()
  .refine((v) => Object.values(v.changes).some((x) => x !== undefined), { message: accessLogMessages.incidentNothingChanged, path: ["changes"] });
export type IncidentUpdateInput = z.input<typeof incidentUpdateInput>;
