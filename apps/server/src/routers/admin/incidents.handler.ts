import { schema } from "@elo/db";
import type { incidentInput } from "@elo/shared";
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { AdminCtx } from "./admin.types";

const { incidents, schools } = schema;

/** The register, newest first (kept 5 years: decision 191). */
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
      createdAt: incidents.createdAt,
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
      createdBy: ctx.user.id,
      createdAt: ctx.clock.now(),
    })
    .returning({ id: incidents.id });
  return { id: row!.id };
}
