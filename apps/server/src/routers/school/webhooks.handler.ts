import { schema } from "@elo/db";
import { WEBHOOK_MAX_ENDPOINTS, webhookMessages as m, type WebhookCreateInput, type WebhookUpdateInput } from "@elo/shared";
import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { AppError } from "../../trpc/errors";
import { endpointUrlProblem } from "../../webhooks/address-guard";
import { newWebhookSecret } from "../../webhooks/signing";
import type { StaffContext } from "./staff-context";

const { webhookEndpoints: e, webhookEvents: ev, webhookDeliveries: d } = schema;

/** The old secret keeps signing alongside the new one this long after a rotation. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

/** What staff see of an endpoint: never its secret (shown once, at creation and rotation). */
const endpointColumns = {
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  status: e.status,
  pausedReason: e.pausedReason,
  failingSince: e.failingSince,
  previousSecretUntil: e.previousSecretUntil,
  createdAt: e.createdAt,
};

const notFound = () => new AppError("NOT_FOUND", m.endpointNotFound);

function checkUrl(ctx: StaffContext, url: string) {
  const problem = endpointUrlProblem(url, ctx.config.isProduction);
  if (problem) throw new AppError("BAD_REQUEST", problem);
}

/** Starts a delivery round now (the 'Testar' answer shows up at once) when the sender polls. */
function kick(ctx: StaffContext) {
  if (ctx.config.WEBHOOK_POLL_MS > 0) ctx.background.run("webhook delivery", () => ctx.webhooks.flush());
}

/** This school's endpoint by id, or NOT_FOUND (another school's id is not told apart from a wrong one). */
async function ownEndpoint(ctx: StaffContext, id: string) {
  const [row] = await ctx.db.select(endpointColumns).from(e).where(and(eq(e.id, id), eq(e.schoolId, ctx.schoolId)));
  if (!row) throw notFound();
  return row;
}

export function listEndpoints({ ctx }: { ctx: StaffContext }) {
  return ctx.db.select(endpointColumns).from(e).where(eq(e.schoolId, ctx.schoolId)).orderBy(e.createdAt, e.id);
}

/** Adds an endpoint (at most 5 a school: the school row is locked while counting). The secret is answered once. */
export async function createEndpoint({ ctx, input }: { ctx: StaffContext; input: WebhookCreateInput }) {
  checkUrl(ctx, input.url);
  const secret = newWebhookSecret();
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await queryRows(tx, sql`select id from schools where id = ${ctx.schoolId} for update`);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(e).where(eq(e.schoolId, ctx.schoolId));
    if ((count?.n ?? 0) >= WEBHOOK_MAX_ENDPOINTS) throw new AppError("CONFLICT", m.tooMany);
    const [created] = await tx
      .insert(e)
      .values({ schoolId: ctx.schoolId, url: input.url, description: input.description, events: [...new Set(input.events)], secret, createdBy: ctx.user.id, createdAt: now, updatedAt: now })
      .returning(endpointColumns);
    return created!;
  });
  return { ...row, secret };
}

export async function updateEndpoint({ ctx, input }: { ctx: StaffContext; input: WebhookUpdateInput }) {
  if (input.url !== undefined) checkUrl(ctx, input.url);
  const [row] = await ctx.db
    .update(e)
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(e.id, input.id), eq(e.schoolId, ctx.schoolId)))
    .returning(endpointColumns);
  if (!row) throw notFound();
  return row;
}

/** Pauses (by the staff) or resumes an endpoint; resuming starts a fresh failure window. */
export async function setEndpointStatus(ctx: StaffContext, id: string, status: "active" | "paused") {
  const [row] = await ctx.db
    .update(e)
    .set(status === "paused" ? { status, pausedReason: "manual", updatedAt: ctx.clock.now() } : { status, pausedReason: null, failingSince: null, updatedAt: ctx.clock.now() })
    .where(and(eq(e.id, id), eq(e.schoolId, ctx.schoolId)))
    .returning(endpointColumns);
  if (!row) throw notFound();
  if (status === "active") kick(ctx);
  return row;
}

export async function deleteEndpoint({ ctx, input }: { ctx: StaffContext; input: { id: string } }) {
  const [row] = await ctx.db.delete(e).where(and(eq(e.id, input.id), eq(e.schoolId, ctx.schoolId))).returning({ id: e.id });
  if (!row) throw notFound();
  return { id: row.id };
}

/** A new secret, answered once; the old one keeps signing alongside it for 24 hours. */
export async function rotateSecret({ ctx, input }: { ctx: StaffContext; input: { id: string } }) {
  const secret = newWebhookSecret();
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .update(e)
    .set({ previousSecret: sql`${e.secret}`, previousSecretUntil: new Date(now.getTime() + PREVIOUS_SECRET_MS), secret, updatedAt: now })
    .where(and(eq(e.id, input.id), eq(e.schoolId, ctx.schoolId)))
    .returning(endpointColumns);
  if (!row) throw notFound();
  return { ...row, secret };
}

/** 'Testar': a `ping` event for this endpoint only. */
export async function testEndpoint({ ctx, input }: { ctx: StaffContext; input: { id: string } }) {
  const endpoint = await ownEndpoint(ctx, input.id);
  const eventId = await ctx.db.transaction(async (tx) => {
    const [event] = await tx
      .insert(ev)
      .values({ schoolId: ctx.schoolId, type: "ping", payload: { endpointId: endpoint.id, url: endpoint.url } })
      .returning({ id: ev.id });
    await tx.insert(d).values({ eventId: event!.id, endpointId: endpoint.id });
    return event!.id;
  });
  kick(ctx);
  return { eventId };
}

/** 'Reenviar': any event of this school is sent again to this endpoint (the same webhook-id, so receivers can tell). */
export async function resendEvent({ ctx, input }: { ctx: StaffContext; input: { id: string; eventId: string } }) {
  await ownEndpoint(ctx, input.id);
  const [event] = await ctx.db.select({ id: ev.id }).from(ev).where(and(eq(ev.id, input.eventId), eq(ev.schoolId, ctx.schoolId)));
  if (!event) throw new AppError("NOT_FOUND", m.eventNotFound);
  await ctx.db
    .insert(d)
    .values({ eventId: event.id, endpointId: input.id })
    .onConflictDoUpdate({ target: [d.eventId, d.endpointId], set: { status: "pending", nextAttemptAt: sql`'epoch'::timestamptz`, firstAttemptAt: null, deliveredAt: null } });
  kick(ctx);
  return { eventId: event.id };
}

/** The endpoint's last 50 deliveries, newest first, each with its latest attempt (status, latency, first 500 bytes of the answer). */
export async function listDeliveries({ ctx, input }: { ctx: StaffContext; input: { id: string } }) {
  await ownEndpoint(ctx, input.id);
  return queryRows<{
    id: string;
    eventId: string;
    type: string;
    status: "pending" | "delivered" | "failed";
    attempts: number;
    createdAt: string;
    lastAttempt: { at: string; statusCode: number | null; latencyMs: number; response: string; error: string | null } | null;
  }>(
    ctx.db,
    sql`
    select d.id, d.event_id as "eventId", ev.type, d.status, d.attempts, d.created_at as "createdAt",
      (select json_build_object('at', a.at, 'statusCode', a.status_code, 'latencyMs', a.latency_ms, 'response', a.response, 'error', a.error)
       from webhook_attempts a where a.delivery_id = d.id order by a.at desc, a.id desc limit 1) as "lastAttempt"
    from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
    where d.endpoint_id = ${input.id}
    order by d.created_at desc, d.id desc
    limit 50`,
  );
}
