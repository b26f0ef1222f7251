import { schema } from "@elo/db";
import { accessMessages, schoolMessages, type Toast } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { staffSchool } from "../../auth/school-staff";
import type { SessionUser } from "../../auth/session";
import type { AppDeps } from "../../deps";
import { storageKey, UPLOAD_RULES, UploadError, uploadRoute, type UploadContext } from "../../http/uploads";
import { logoAddress } from "../../storage/logo";

const { schools } = schema;

/** Uploads do not pass the tRPC middleware: the same rule as `schoolStaffProcedure`. */
async function staffOnly(user: SessionUser, deps: AppDeps): Promise<Toast | null> {
  if (user.profileType !== "institution") return { title: accessMessages.forbidden };
  const staff = await staffSchool(deps.db, user.id);
  return "refusal" in staff ? staff.refusal : null;
}

/** Stores the logo as `<schoolId>/logo-…` in school_logos, points the school at it and removes the old file. */
async function saveSchoolLogo({ deps, user, file }: UploadContext) {
  // Looked up again: the membership is what decides the school, never a client field.
  const staff = await staffSchool(deps.db, user.id);
  if ("refusal" in staff) throw new UploadError(403, staff.refusal);
  const { schoolId } = staff;
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
