import { schema, type Database } from "@elo/db";
import type { IncidentUpdateFields } from "@elo/shared";
import { eq } from "drizzle-orm";
import { wellFormed } from "../lib/jsonb-safe";

const { incidents, incidentRevisions } = schema;

/** Who edits an incident: an administrator on /admin-pais or the person running the CLI (decision 195). */
export interface IncidentEditor {
  userId: string | null;
  email: string | null;
  via: "admin" | "cli";
}

const FIELDS = ["status", "nature", "accountsAffected", "childrenAffected", "measures", "risks", "delayReason", "anpdCommunicatedAt", "holdersCommunicatedAt"] as const;
/** As stored: dates as ISO text, texts well-formed (a lone surrogate is stored as U+FFFD in the text column and jsonb refuses it). */
const comparable = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === "string" ? wellFormed(v) : (v ?? null));

/**
 * Edits a recorded incident (art. 48 § 1 fields, status, communication dates): in one transaction
 * the row is locked, the fields that really change are written, and ONE revision with each change
 * (before and after), who and through what is appended; the history is never rewritten.
 * null when there is no such incident; `changed: 0` (and no revision) when nothing differed.
 */
export async function updateIncident(db: Database, id: string, changes: IncidentUpdateFields, editor: IncidentEditor, at: Date) {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [current] = await tx.select().from(incidents).where(eq(incidents.id, id)).for("update");
    if (!current) return null;
    const diff: Record<string, { from: unknown; to: unknown }> = {};
    const set: Partial<typeof incidents.$inferInsert> = {};
    for (const field of FIELDS) {
      const next = changes[field];
      if (next === undefined || comparable(next) === comparable(current[field])) continue;
      diff[field] = { from: comparable(current[field]), to: comparable(next) };
      (set as Record<string, unknown>)[field] = typeof next === "string" ? wellFormed(next) : next;
    }
    const changed = Object.keys(diff).length;
    if (changed === 0) return { id, changed };
    await tx.update(incidents).set({ ...set, updatedAt: at }).where(eq(incidents.id, id));
    await tx.insert(incidentRevisions).values({ incidentId: id, changes: diff, changedBy: editor.userId, changedByEmail: editor.email, via: editor.via, changedAt: at });
    return { id, changed };
  });
}
