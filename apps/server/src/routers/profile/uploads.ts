import { schema, type Database } from "@elo/db";
import { accessMessages, profileMessages } from "@elo/shared";
import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps";
import { ownsKey, storageKey, UPLOAD_RULES, UploadError, uploadRoute, type UploadContext } from "../../http/uploads";
import { enrollmentProofEmail, enqueueTemplate } from "../../mail/templates";
import { absoluteUrl } from "../../storage/storage";
import { notifyProfileChanged } from "./events";

const { profiles, enrollments } = schema;

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

/**
 * Stores an enrollment proof (JPG/PNG/PDF, 5 MB): the main proof (no `enrollmentId` field) needs the
 * saved student and school names and marks enrollment_proof_submitted; an other-enrollment proof
 * goes on that enrollment. The admin address gets a signed link, queued in the same transaction as
 * the row that records the proof; the old file is removed after it commits.
 */
async function saveProof({ deps, user, file, fields }: UploadContext) {
  const [me] = await deps.db
    .select({ fullName: profiles.fullName, studentName: profiles.studentName, schoolName: profiles.schoolName, proof: profiles.enrollmentProofUrl })
    .from(profiles)
    .where(eq(profiles.userId, user.id));
  if (!me) throw new UploadError(401, { title: accessMessages.userNotAuthenticated });
  const now = deps.clock.now();
  const enrollmentId = fields.enrollmentId?.trim();

  let key: string;
  let oldKey: string | null;
  let schoolName: string;
  let studentName: string;
  let record: (tx: Database) => Promise<unknown>;
  if (!enrollmentId) {
    if (!me.studentName?.trim() || !me.schoolName?.trim()) throw new UploadError(400, { title: profileMessages.proofErrorTitle, description: profileMessages.proofNeedsNames });
    key = storageKey(user.id, "proof", file, now);
    record = (tx) => tx.update(profiles).set({ enrollmentProofUrl: key, enrollmentProofSubmitted: true, updatedAt: now }).where(eq(profiles.userId, user.id));
    oldKey = me.proof;
    schoolName = me.schoolName;
    studentName = me.studentName;
  } else {
    const own = await deps.db
      .select({ id: enrollments.id, proofUrl: enrollments.proofUrl, institutionName: enrollments.institutionName, studentName: enrollments.studentName })
      .from(enrollments)
      .where(eq(enrollments.userId, user.id))
      .orderBy(asc(enrollments.createdAt), asc(enrollments.id));
    const index = own.findIndex((e) => e.id === enrollmentId);
    if (index < 0) throw new UploadError(404, { title: profileMessages.proofErrorTitle, description: profileMessages.enrollmentNotFound });
    const target = own[index]!;
    key = storageKey(user.id, `enrollment-${index + 1}`, file, now);
    record = (tx) => tx.update(enrollments).set({ proofUrl: key, updatedAt: now }).where(and(eq(enrollments.id, target.id), eq(enrollments.userId, user.id)));
    oldKey = target.proofUrl;
    schoolName = target.institutionName ?? "";
    studentName = target.studentName ?? me.studentName ?? "";
  }

  await deps.storage.put("enrollment_proofs", key, file.bytes, file.mime);
  const signed = await deps.storage.signedUrl("enrollment_proofs", key);
  await deps.db
    .transaction(async (tx) => {
      await record(tx);
      await enqueueTemplate({ mailer: deps.mailer, config: deps.config }, tx, enrollmentProofEmail, deps.config.ADMIN_EMAIL, { userId: null, aboutUserId: user.id }, {
        parentName: me.fullName ?? "",
        parentEmail: user.email,
        studentName,
        schoolName,
        fileUrl: absoluteUrl(deps.config.publicOrigin, signed),
        fileName: file.clientName,
      });
    })
    .catch(async (error) => {
      await deps.storage.remove("enrollment_proofs", key);
      throw error;
    });
  if (ownsKey(user.id, oldKey) && oldKey !== key) await deps.storage.remove("enrollment_proofs", oldKey).catch(() => {});
  await notifyProfileChanged(deps.db, user.id);
  return { proofUrl: signed, enrollmentId: enrollmentId ?? null };
}

const parentsOnly = (user: { profileType: string | null }) => (user.profileType === "parent" ? null : { title: accessMessages.forbidden });

/** POST /api/uploads/avatar and /api/uploads/enrollment-proof. */
export function registerProfileUploads(app: FastifyInstance, deps: AppDeps) {
  uploadRoute(app, deps, "/api/uploads/avatar", UPLOAD_RULES.avatar, saveAvatar);
  uploadRoute(app, deps, "/api/uploads/enrollment-proof", UPLOAD_RULES.enrollmentProof, saveProof, { authorize: parentsOnly });
}
