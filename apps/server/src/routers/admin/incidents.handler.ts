import { schema } from "@elo/db";
import { accessLogMessages, type incidentInput, type incidentUpdateInput } from "@elo/shared";
import { desc, eq, sql } from "drizzle-orm";
import { updateIncident } from "../../access-log/incident-register";
import { AppError } from "../../trpc/errors";
import type { z } from "zod";
import type { AdminCtx } from "./admin.types";

const { incidents, incidentRevisions, schools } = schema;

/** The register, newest first (kept 5 years: decision 191), each incident with its history of edits (decision 195). */
export function listIncidents({ ctx }: { ctx: AdminCtx }) {
  return ctx.db
    .select({
      id: incidents.id,
      title: incidents.title,
      detectedAt: incidents.detectedAt,
      windowFrom: incidents.windowFrom,
      windowTo: incidents.windowTo,
      schoolName: schools.name,
      nature: incidents.nature,
      accountsAffected: incidents.accountsAffected,
      childrenAffected: incidents.childrenAffected,
      measures: incidents.measures,
      communicatedAt: incidents.communicatedAt,
      status: incidents.status,
      risks: incidents.risks,
      delayReason: incidents.delayReason,
      anpdCommunicatedAt: incidents.anpdCommunicatedAt,
      holdersCommunicatedAt: incidents.holdersCommunicatedAt,
      createdAt: incidents.createdAt,
      updatedAt: incidents.updatedAt,
      history: sql<Array<{ changedAt: string; changedByEmail: string | null; via: "admin" | "cli"; changes: Record<string, { from: unknown; to: unknown }> }>>`coalesce((
        select json_agg(json_build_object('changedAt', r.changed_at, 'changedByEmail', r.changed_by_email, 'via', r.via, 'changes', r.changes) order by r.changed_at desc, r.id)
        from ${incidentRevisions} r where r.incident_id = ${incidents.id}), '[]'::json)`,
    })
    .from(incidents)
    .leftJoin(schools, eq(schools.id, incidents.schoolId))
    .orderBy(desc(incidents.createdAt))
    .limit(500);
}

/** Records an incident; named columns only. */
export async function createIncident({ ctx, input }: { ctx: AdminCtx; input: z.output<typeof incidentInput> }) {
  const [row] = await ctx.db
    .insert(incidents)
    .values({
      title: input.title,
      detectedAt: input.detectedAt,
      windowFrom: input.windowFrom,
      windowTo: input.windowTo,
      schoolId: input.schoolId,
      nature: input.nature,
      accountsAffected: input.accountsAffected,
      childrenAffected: input.childrenAffected,
      measures: input.measures,
      communicatedAt: input.communicatedAt,
      anpdCommunicatedAt: input.communicatedAt,
      holdersCommunicatedAt: input.communicatedAt,
      createdBy: ctx.user.id,
      createdAt: ctx.clock.now(),
    })
    .returning({ id: incidents.id });
  return { id: row!.id };
}

/** 'Atualizar' an incident: the fields given change, the edit is appended to its history (decision 195). */
export async function editIncident({ ctx, input }: { ctx: AdminCtx; input: z.output<typeof incidentUpdateInput> }) {
  const done = await updateIncident(ctx.db, input.id, input.changes, { userId: ctx.user.id, email: ctx.user.email, via: "admin" }, ctx.clock.now());
  if (!done) throw new AppError("NOT_FOUND", accessLogMessages.incidentNotFound);
  return done;
}
