import { schema } from "@elo/db";
import { accessMessages, profileMessages, schoolMessages, type Toast } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { SessionUser } from "../../auth/session";
import type { AppDeps } from "../../deps";
import { storageKey, UPLOAD_RULES, UploadError, uploadRoute, type UploadContext } from "../../http/uploads";
import { logoAddress } from "../../storage/logo";

const { schools, schoolMemberships } = schema;

/** The school the user is approved staff of, or null (pending, rejected and unlinked users have none). */
async function approvedSchoolId(deps: AppDeps, userId: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ schoolId: schoolMemberships.schoolId })
    .from(schoolMemberships)
    .where(and(eq(schoolMemberships.userId, userId), eq(schoolMemberships.status, "approved")));
  return row?.schoolId ?? null;
}

/**
 * Uploads do not pass the tRPC middleware, so this repeats `schoolStaffProcedure`'s rule: an
 * institution user with an APPROVED membership; the pending state gets its own message.
 */
async function staffOnly(user: SessionUser, deps: AppDeps): Promise<Toast | null> {
  if (user.profileType !== "institution") return { title: accessMessages.forbidden };
  if (await approvedSchoolId(deps, user.id)) return null;
  const [pending] = await deps.db
    .select({ id: schoolMemberships.id })
    .from(schoolMemberships)
    .where(and(eq(schoolMemberships.userId, user.id), eq(schoolMemberships.status, "pending")));
  return pending ? { title: profileMessages.membershipPending, description: profileMessages.membershipPendingDescription } : { title: profileMessages.membershipRequired };
}

/** Stores the logo as `<schoolId>/logo-…` in school_logos, points the school at it and removes the old file. */
async function saveSchoolLogo({ deps, user, file }: UploadContext) {
  // Looked up again: the membership is what decides the school, never a client field.
  const schoolId = await approvedSchoolId(deps, user.id);
  if (!schoolId) throw new UploadError(403, { title: profileMessages.membershipRequired });
  const [before] = await deps.db.select({ logoUrl: schools.logoUrl }).from(schools).where(eq(schools.id, schoolId));
  const now = deps.clock.now();
  const key = storageKey(schoolId, "logo", file, now);
  await deps.storage.put("school_logos", key, file.bytes, file.mime);
  try {
    await deps.db.update(schools).set({ logoUrl: key, updatedAt: now }).where(eq(schools.id, schoolId));
  } catch (error) {
    await deps.storage.remove("school_logos", key);
    deps.logger.error({ err: error }, "school logo not saved");
    throw new UploadError(500, { title: schoolMessages.saveErrorTitle, description: schoolMessages.logoSaveErrorDescription });
  }
  const old = before?.logoUrl;
  // Only files of this school's folder are ours to remove (an http address or another key is left alone).
  if (old && old !== key && old.startsWith(`${schoolId}/`)) {
    await deps.storage.remove("school_logos", old).catch((err) => deps.logger.warn({ err }, "old logo file left behind"));
  }
  return { logoUrl: logoAddress(deps.storage, key) };
}

/** POST /api/uploads/school-logo: approved staff replace their school's logo (image, 2 MB). */
export function registerSchoolUploads(app: FastifyInstance, deps: AppDeps) {
  uploadRoute(app, deps, "/api/uploads/school-logo", UPLOAD_RULES.schoolLogo, saveSchoolLogo, { authorize: staffOnly });
}
