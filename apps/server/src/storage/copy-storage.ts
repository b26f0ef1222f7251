import { createHash } from "node:crypto";
import { BUCKETS, type Bucket, type Storage, type StoredEntry } from "./storage";

export interface CopyProgress {
  /** Files handled so far (copied or found already there) out of `total`. */
  done: number;
  total: number;
  copied: number;
  /** Found in the target with the same size and MD5 (or the same size where the target gives no MD5). */
  skipped: number;
}

/** The progress line the copy command prints. */
export const progressLine = (p: CopyProgress) => `${p.done}/${p.total} arquivos, ${p.copied} copiados, ${p.skipped} já existiam`;

const md5 = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

/**
 * Copies every file of every bucket from one store to another (the disk to S3: `npm run storage:copy`).
 * Idempotent: a file the target already holds with the same size and MD5 is skipped, so a run that
 * stopped half-way is finished by running it again. Keys are never reused for other bytes, so where
 * the target's ETag is not an MD5 (multipart, SSE-KMS) the same size counts as the same file.
 */
export async function copyStorage(from: Storage, to: Storage, onProgress: (p: CopyProgress) => void = () => {}, concurrency = 4): Promise<CopyProgress> {
  const work: { bucket: Bucket; key: string }[] = [];
  const present = new Map<string, StoredEntry>();
  for (const bucket of BUCKETS) {
    for (const { key } of await from.list(bucket, "")) work.push({ bucket, key });
    for (const entry of await to.list(bucket, "")) present.set(`${bucket}/${entry.key}`, entry);
  }
  const progress: CopyProgress = { done: 0, total: work.length, copied: 0, skipped: 0 };
  onProgress({ ...progress });

  let next = 0;
  async function worker() {
    while (next < work.length) {
      const { bucket, key } = work[next++]!;
      const file = await from.get(bucket, key);
      if (file) {
        const there = present.get(`${bucket}/${key}`);
        if (there && there.size === file.bytes.length && (!there.md5 || there.md5 === md5(file.bytes))) {
          progress.skipped++;
        } else {
          await to.put(bucket, key, file.bytes, file.contentType);
          progress.copied++;
        }
      }
      progress.done++;
      onProgress({ ...progress });
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, work.length) }, worker));
  return progress;
}
