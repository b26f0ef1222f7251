import { z } from "zod";
import { webhookMessages as m } from "../messages/webhooks";
import { text } from "./fields";

/** The event types a school's endpoint may ask for (issue 29); `ping` is only sent by 'Testar'. */
export const WEBHOOK_EVENT_TYPES = [
  "voucher.reserved",
  "voucher.used",
  "voucher.cancelled",
  "voucher.expired",
  "voucher.given_up",
  "waitlist.offered",
  "benefit.sold_out",
  "enrollment.verification_requested",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** At most this many endpoints a school. */
export const WEBHOOK_MAX_ENDPOINTS = 5;

/** The WHATWG URL global of browsers and Node (this package is typed without DOM or Node libs). */
declare const URL: { canParse(url: string): boolean };

const url = text()
  .trim()
  .min(1, { error: m.urlRequired })
  .max(2000, { error: m.urlTooLong })
  .refine((v) => URL.canParse(v), { error: m.urlInvalid });

const events = z.array(z.enum(WEBHOOK_EVENT_TYPES, { error: m.eventUnknown }), { error: m.eventsRequired }).min(1, { error: m.eventsRequired }).max(WEBHOOK_EVENT_TYPES.length);
const description = text().trim().max(200, { error: m.descriptionTooLong });

export const webhookCreateInput = z.object({ url, events, description: description.default("") }).strict();
export type WebhookCreateInput = z.infer<typeof webhookCreateInput>;

export const webhookIdInput = z.object({ id: z.uuid({ error: m.endpointNotFound }) }).strict();
export const webhookUpdateInput = z.object({ id: z.uuid({ error: m.endpointNotFound }), url: url.optional(), events: events.optional(), description: description.optional() }).strict();
export type WebhookUpdateInput = z.infer<typeof webhookUpdateInput>;
export const webhookResendInput = z.object({ id: z.uuid({ error: m.endpointNotFound }), eventId: z.uuid({ error: m.eventNotFound }) }).strict();
