import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { checkedKey, PUBLIC_BUCKETS, publicFileUrl, SIGNED_URL_SECONDS, type Bucket, type Storage, type StoredEntry } from "./storage";

const TYPE_SUFFIX = ".type";

/** Stores files under `root/<bucket>/<key>`, with a `.type` file beside each holding its content type. */
export function diskStorage(root: string, signingSecret: string, now: () => number = Date.now): Storage {
  const fileOf = (bucket: Bucket, key: string) => path.join(root, bucket, checkedKey(key));
  const sign = (bucket: Bucket, key: string, expires: number) =>
    createHmac("sha256", signingSecret).update(`${bucket}/${key}:${expires}`).digest("base64url");
  return {
    async put(bucket, key, bytes, contentType) {
      const file = fileOf(bucket, key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
      await writeFile(`${file}${TYPE_SUFFIX}`, contentType);
    },
    async get(bucket, key) {
      const file = fileOf(bucket, key);
      try {
        const [bytes, contentType] = await Promise.all([readFile(file), readFile(`${file}${TYPE_SUFFIX}`, "utf8")]);
        return { bytes, contentType };
      } catch {
        return null;
      }
    },
    async remove(bucket, key) {
      const file = fileOf(bucket, key);
      await rm(file, { force: true });
      await rm(`${file}${TYPE_SUFFIX}`, { force: true });
    },
    async list(bucket, prefix) {
      const bucketDir = path.join(root, bucket);
      // Only the folder the prefix names is walked; the rest of the prefix filters names.
      const folder = prefix.includes("/") ? checkedKey(prefix.slice(0, prefix.lastIndexOf("/"))) : "";
      const entries = (await filesUnder(bucketDir, folder)).filter((e) => e.key.startsWith(prefix));
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async signedUrl(bucket, key, seconds = SIGNED_URL_SECONDS) {
      const base = publicFileUrl(bucket, key);
      if (PUBLIC_BUCKETS.has(bucket)) return base;
      const expires = Math.floor(now() / 1000) + seconds;
      return `${base}?expires=${expires}&signature=${sign(bucket, key, expires)}`;
    },
    publicUrl: publicFileUrl,
    verify(bucket, key, expires, signature, nowMs = now()) {
      if (!Number.isInteger(expires) || expires * 1000 < nowMs) return false;
      const expected = Buffer.from(sign(bucket, key, expires));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    close() {},
  };
}

/** The stored files under `dir/folder`, keyed relative to `dir`; none when the folder does not exist. */
async function filesUnder(dir: string, folder: string): Promise<StoredEntry[]> {
  let names: string[];
  try {
    names = await readdir(path.join(dir, folder), { recursive: true });
  } catch {
    return [];
  }
  // A stored file has its `.type` beside it (written last by `put`); anything else is not one.
  const present = new Set(names);
  const entries: StoredEntry[] = [];
  for (const name of names) {
    if (name.endsWith(TYPE_SUFFIX) || !present.has(`${name}${TYPE_SUFFIX}`)) continue;
    const key = path.posix.join(folder, name.split(path.sep).join("/"));
    const info = await stat(path.join(dir, key)).catch(() => null); // removed meanwhile
    if (info?.isFile()) entries.push({ key, size: info.size });
  }
  return entries;
}
