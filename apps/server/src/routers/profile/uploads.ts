import { schema, type Database } from "@elo/db";
import { accessMessages, formatMessages, LIMITS, profileMessages } from "@elo/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps";
import { ownsKey, storageKey, UPLOAD_RULES, UploadError, uploadRoute, type UploadContext } from "../../http/uploads";
import { enrollmentProofEmail, enqueueTemplate } from "../../mail/templates";
import { absoluteUrl } from "../../storage/storage";
import { recordProof } from "../verification/record-proof";
import { proofIdsIn, queueDiscardNotices } from "../../access-log/discard-notices";
import { notifyProfileChanged } from "./events";

const { profiles, enrollments, users } = schema;

/** Stores a new avatar (2 MB image), points the profile at it, removes the old file and tells open tabs. */
async function saveAvatar({ deps, user, file }: UploadContext) {
  const [before] = await deps.db.select({ avatarUrl: profiles.avatarUrl }).from(profiles).where(eq(profiles.userId, user.id));
  const key = storageKey(user.id, "avatar", file, deps.clock.now());
  await deps.storage.put("avatars", key, file.bytes, file.mime);
  try {
    await deps.db.update(profiles).set({ avatarUrl: key, updatedAt: deps.clock.now() }).where(eq(profiles.userId, user.id));
  } catch (error) {
    await deps.storage.remove("avatars", key);
    throw new UploadError(500, { title: profileMessages.saveErrorTitle, description: profileMessages.avatarSaveErrorDescription });
  }
  if (ownsKey(user.id, before?.avatarUrl) && before.avatarUrl !== key) await deps.storage.remove("avatars", before.avatarUrl).catch(() => {});
  await notifyProfileChanged(deps.db, user.id);
  return { avatarUrl: await deps.storage.signedUrl("avatars", key) };
}

/** The class and grade the parent declared with the proof ("5º ano B"): trimmed, short, no control characters. */
function declaredClassOf(fields: Record<string, string>): string | null {
  const value = fields.declaredClass?.trim() ?? "";
  if (!value) return null;
  if (value.length > LIMITS.declaredClassMax || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new UploadError(400, { title: profileMessages.proofErrorTitle, description: formatMessages.tooLong(LIMITS.declaredClassMax) });
  }
  return value;
}

/**
 * Stores an enrollment proof (JPG/PNG/PDF, 5 MB): the main proof (no `enrollmentId` field) needs the
 * saved student name and school and marks enrollment_proof_submitted; an other-enrollment proof
 * goes on that enrollment. In one transaction (the parent's account row locked) the row points at
 * the file, the proof enters the named school's queue as 'enviado' (issue 21) and the admin
 * address's e-mail is queued; then the old file is removed.
 */
async function saveProof({ deps, user, file, fields }: UploadContext) {
  const [me] = await deps.db
    .select({ fullName: profiles.fullName, studentName: profiles.studentName, schoolName: profiles.schoolName, schoolId: profiles.schoolId, proof: profiles.enrollmentProofUrl })
    .from(profiles)
    .where(eq(profiles.userId, user.id));
  if (!me) throw new UploadError(401, { title: accessMessages.userNotAuthenticated });
  const now = deps.clock.now();
  const enrollmentId = fields.enrollmentId?.trim() || null;
  const declaredClass = declaredClassOf(fields);

  let target: { id: string; proofUrl: string | null; schoolId: string | null; schoolName: string; studentName: string | null; declaredClass: string | null; index: number } | null = null;
  if (!enrollmentId) {
    if (!me.studentName?.trim() || !me.schoolName?.trim() || !me.schoolId) throw new UploadError(400, { title: profileMessages.proofErrorTitle, description: profileMessages.proofNeedsNames });
  } else {
    const own = await deps.db
      .select({ id: enrollments.id, proofUrl: enrollments.proofUrl, schoolId: enrollments.schoolId, institutionName: enrollments.institutionName, studentName: enrollments.studentName, classNumber: enrollments.classNumber })
      .from(enrollments)
      .where(eq(enrollments.userId, user.id))
      .orderBy(asc(enrollments.createdAt), asc(enrollments.id));
    const index = own.findIndex((e) => e.id === enrollmentId);
    const row = own[index];
    if (!row) throw new UploadError(404, { title: profileMessages.proofErrorTitle, description: profileMessages.enrollmentNotFound });
    if (!row.schoolId) throw new UploadError(400, { title: profileMessages.proofErrorTitle, description: profileMessages.proofNeedsNames });
    target = { id: row.id, proofUrl: row.proofUrl, schoolId: row.schoolId, schoolName: row.institutionName ?? "", studentName: row.studentName ?? me.studentName, declaredClass: declaredClass ?? row.classNumber, index };
  }

  const key = storageKey(user.id, target ? `enrollment-${target.index + 1}` : "proof", file, now);
  await deps.storage.put("enrollment_proofs", key, file.bytes, file.mime);
  const studentName = target ? (target.studentName ?? "") : me.studentName!;
  const schoolName = target ? target.schoolName : me.schoolName!;
  const signed = await deps.storage.signedUrl("enrollment_proofs", key);
  try {
    await deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Database;
      // The account row, as an account deletion locks it first: uploads of one parent queue up, and a
      // deletion running meanwhile waits for this one (or goes first) instead of deadlocking.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
      if (target) {
        await tx.update(enrollments).set({ proofUrl: key, updatedAt: now }).where(and(eq(enrollments.id, target.id), eq(enrollments.userId, user.id)));
      } else {
        await tx.update(profiles).set({ enrollmentProofUrl: key, enrollmentProofSubmitted: true, updatedAt: now }).where(eq(profiles.userId, user.id));
      }
      const replaced = await recordProof(tx, { userId: user.id, enrollmentId: target?.id ?? null, schoolId: (target?.schoolId ?? me.schoolId)!, fileKey: key, studentName, declaredClass: target ? target.declaredClass : declaredClass, at: now });
      if (replaced.length > 0) await queueDiscardNotices(deps, tx, user.id, proofIdsIn(replaced));
      await enqueueTemplate({ mailer: deps.mailer, config: deps.config }, tx, enrollmentProofEmail, deps.config.ADMIN_EMAIL, { userId: null, aboutUserId: user.id }, {
        parentName: me.fullName ?? "",
        parentEmail: user.email,
        studentName,
        schoolName,
        fileUrl: absoluteUrl(deps.config.publicOrigin, signed),
        fileName: file.clientName,
      });
    });
  } catch (error) {
    await deps.storage.remove("enrollment_proofs", key);
    throw error;
  }
  const oldKey = target ? target.proofUrl : me.proof;
  if (ownsKey(user.id, oldKey) && oldKey !== key) await deps.storage.remove("enrollment_proofs", oldKey).catch(() => {});

  await notifyProfileChanged(deps.db, user.id);
  return { proofUrl: signed, enrollmentId };
}

const parentsOnly = (user: { profileType: string | null }) => (user.profileType === "parent" ? null : { title: accessMessages.forbidden });

/** POST /api/uploads/avatar and /api/uploads/enrollment-proof. */
export function registerProfileUploads(app: FastifyInstance, deps: AppDeps) {
  uploadRoute(app, deps, "/api/uploads/avatar", UPLOAD_RULES.avatar, saveAvatar);
  uploadRoute(app, deps, "/api/uploads/enrollment-proof", UPLOAD_RULES.enrollmentProof, saveProof, { authorize: parentsOnly });
}
