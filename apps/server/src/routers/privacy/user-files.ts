import { schema, type Database } from "@elo/db";
import { privacyMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import type { Bucket, Storage } from "../../storage/storage";

export interface UserFile {
  bucket: Bucket;
  key: string;
  /** What the file is, in Portuguese, for the export. */
  kind: string;
}

/** Every stored file that belongs to a user: avatar, main enrollment proof and other enrollments' proofs. */
export async function listUserFiles(db: Database, userId: string): Promise<UserFile[]> {
  const [profile] = await db
    .select({ avatarUrl: schema.profiles.avatarUrl, proofUrl: schema.profiles.enrollmentProofUrl })
    .from(schema.profiles)
    .where(eq(schema.profiles.userId, userId));
  const enrollmentProofs = await db
    .select({ proofUrl: schema.enrollments.proofUrl })
    .from(schema.enrollments)
    .where(eq(schema.enrollments.userId, userId));
  const files: UserFile[] = [];
  if (profile?.avatarUrl) files.push({ bucket: "avatars", key: profile.avatarUrl, kind: "Foto de perfil" });
  if (profile?.proofUrl) files.push({ bucket: "enrollment_proofs", key: profile.proofUrl, kind: "Comprovante de matrícula (escola principal)" });
  for (const e of enrollmentProofs) {
    if (e.proofUrl && !files.some((f) => f.bucket === "enrollment_proofs" && f.key === e.proofUrl)) {
      files.push({ bucket: "enrollment_proofs", key: e.proofUrl, kind: "Comprovante de matrícula (outra instituição)" });
    }
  }
  return files;
}

/** Private buckets whose keys start with the owner's id (`storageKey(user.id, ...)`). */
const USER_BUCKETS = ["avatars", "enrollment_proofs"] as const satisfies readonly Bucket[];

/**
 * `files` plus every other file stored under the user's folder in the private buckets: an old avatar
 * or proof whose removal failed when it was replaced is still the user's, in either store.
 */
export async function withStoredLeftovers(storage: Storage, userId: string, files: UserFile[]): Promise<UserFile[]> {
  const all = [...files];
  for (const bucket of USER_BUCKETS) {
    for (const { key } of await storage.list(bucket, `${userId}/`)) {
      if (!all.some((f) => f.bucket === bucket && f.key === key)) all.push({ bucket, key, kind: privacyMessages.leftoverFileKind });
    }
  }
  return all;
}
