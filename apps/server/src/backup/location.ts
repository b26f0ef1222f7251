import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config";
import { makeS3Client } from "../storage/s3-storage";

/**
 * Where backups are kept (decision 182, amended by 184): a folder, or a prefix of an S3-compatible
 * bucket. A backup is a name (`elo-backup-<UTC time>`) under the location holding relative paths
 * (`manifest.json`, `database.dump`, `files/<bucket>/<key>`), the same layout in both.
 */
export interface BackupLocation {
  readonly kind: "folder" | "s3";
  /** What the operator types to name this backup again (`/srv/backups/elo-backup-...`, `s3://b/p/elo-backup-...`). */
  address(name: string): string;
  /** The backups' names directly under the location (any state), sorted. */
  names(): Promise<string[]>;
  put(name: string, rel: string, bytes: Buffer): Promise<void>;
  /** Copies a local file in (streamed: a dump may be larger than memory). */
  putFile(name: string, rel: string, localFile: string): Promise<void>;
  /** The bytes, or null when there is no such file. */
  get(name: string, rel: string): Promise<Buffer | null>;
  /** SHA-256 of a stored file, streamed; null when missing. */
  sha256(name: string, rel: string): Promise<string | null>;
  /** Where the file can be written straight away on this machine (a folder), else null (S3). */
  localPath(name: string, rel: string): string | null;
  /** A local file with these bytes: the file itself in a folder, a download into `tmpDir` from S3. */
  fetchFile(name: string, rel: string, tmpDir: string): Promise<string>;
  close(): void;
}

export const BACKUP_PREFIX = "elo-backup-";

const hashStream = async (stream: NodeJS.ReadableStream) => {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
};

export function folderLocation(root: string): BackupLocation {
  const abs = path.resolve(root);
  const at = (name: string, rel: string) => path.join(abs, name, rel);
  return {
    kind: "folder",
    address: (name) => path.join(abs, name),
    async names() {
      return existsSync(abs) ? readdirSync(abs).filter((n) => n.startsWith(BACKUP_PREFIX) && statSync(path.join(abs, n)).isDirectory()).sort() : [];
    },
    async put(name, rel, bytes) {
      await mkdir(path.dirname(at(name, rel)), { recursive: true });
      await writeFile(at(name, rel), bytes);
    },
    async putFile(name, rel, localFile) {
      if (path.resolve(localFile) === at(name, rel)) return;
      await mkdir(path.dirname(at(name, rel)), { recursive: true });
      await pipeline(createReadStream(localFile), createWriteStream(at(name, rel)));
    },
    async get(name, rel) {
      return existsSync(at(name, rel)) ? readFile(at(name, rel)) : null;
    },
    async sha256(name, rel) {
      return existsSync(at(name, rel)) ? hashStream(createReadStream(at(name, rel))) : null;
    },
    localPath: (name, rel) => at(name, rel),
    async fetchFile(name, rel) {
      return at(name, rel);
    },
    close() {},
  };
}

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

/** Backups as objects `<prefix>/<name>/<rel>` of one bucket, through the storage layer's S3 client. */
export function s3Location(settings: S3Settings, prefix: string): BackupLocation {
  const client: S3Client = makeS3Client(settings, settings.endpoint);
  const base = prefix.replace(/^\/+|\/+$/g, "");
  const key = (name: string, rel = "") => [base, name, rel].filter(Boolean).join("/");
  const body = async (name: string, rel: string) => {
    try {
      return (await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key(name, rel) }))).Body as Readable;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };
  return {
    kind: "s3",
    address: (name) => `s3://${settings.bucket}/${key(name)}`,
    async names() {
      const found = new Set<string>();
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: base ? `${base}/` : "", Delimiter: "/", ContinuationToken: token }));
        for (const p of page.CommonPrefixes ?? []) {
          const name = p.Prefix?.slice(base ? base.length + 1 : 0).replace(/\/$/, "");
          if (name?.startsWith(BACKUP_PREFIX)) found.add(name);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return [...found].sort();
    },
    async put(name, rel, bytes) {
      await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: key(name, rel), Body: bytes }));
    },
    async putFile(name, rel, localFile) {
      const size = statSync(localFile).size;
      await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: key(name, rel), Body: createReadStream(localFile), ContentLength: size }));
    },
    async get(name, rel) {
      const stream = await body(name, rel);
      if (!stream) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async sha256(name, rel) {
      const stream = await body(name, rel);
      return stream ? hashStream(stream) : null;
    },
    localPath: () => null,
    async fetchFile(name, rel, tmpDir) {
      const stream = await body(name, rel);
      if (!stream) throw new Error(`${key(name, rel)} não existe no bucket ${settings.bucket}`);
      const file = path.join(tmpDir, path.basename(rel));
      await pipeline(stream, createWriteStream(file));
      return file;
    },
    close: () => client.destroy(),
  };
}

/**
 * The bucket a backup address `s3://bucket/prefix` is reached with: BACKUP_S3_* variables first
 * (another provider, other keys: copies off the machine), else the app's own S3_* ones.
 */
export function backupS3Settings(bucket: string, env: NodeJS.ProcessEnv = process.env): S3Settings {
  const pick = (name: string) => env[`BACKUP_S3_${name}`] ?? env[`S3_${name}`];
  const endpoint = pick("ENDPOINT");
  const accessKeyId = pick("ACCESS_KEY_ID");
  const secretAccessKey = pick("SECRET_ACCESS_KEY");
  const missing = [!endpoint && "ENDPOINT", !accessKeyId && "ACCESS_KEY_ID", !secretAccessKey && "SECRET_ACCESS_KEY"].filter(Boolean);
  if (missing.length) throw new Error(`Para gravar ou ler cópias em s3://${bucket}, defina ${missing.map((m) => `BACKUP_S3_${m} (ou S3_${m})`).join(", ")}.`);
  const style = pick("FORCE_PATH_STYLE");
  return {
    endpoint: endpoint!,
    publicEndpoint: endpoint!,
    region: pick("REGION") ?? "us-east-1",
    bucket,
    accessKeyId: accessKeyId!,
    secretAccessKey: secretAccessKey!,
    forcePathStyle: style === "1" || style === "true",
  };
}

const S3_ADDRESS = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/** `--to`/BACKUP_TO: `s3://bucket/prefix` or a folder. */
export function backupLocation(to: string, env: NodeJS.ProcessEnv = process.env): BackupLocation {
  if (!to.startsWith("s3://")) return folderLocation(to);
  const m = S3_ADDRESS.exec(to);
  if (!m) throw new Error(`Endereço de cópia inválido: ${to} (use s3://bucket/prefixo ou uma pasta)`);
  return s3Location(backupS3Settings(m[1]!, env), m[2] ?? "");
}

/** One backup by its address (`<folder>/elo-backup-...` or `s3://bucket/prefix/elo-backup-...`): its location and name. */
export function openBackup(address: string, env: NodeJS.ProcessEnv = process.env): { location: BackupLocation; name: string } {
  const trimmed = address.replace(/\/+$/, "");
  const cut = trimmed.lastIndexOf("/");
  const name = trimmed.slice(cut + 1);
  const parent = trimmed.slice(0, cut);
  if (trimmed.startsWith("s3://")) {
    if (!name.startsWith(BACKUP_PREFIX) || !parent.slice(5).length) throw new Error(`Endereço de cópia inválido: ${address} (esperado s3://bucket/prefixo/${BACKUP_PREFIX}...)`);
    return { location: backupLocation(parent, env), name };
  }
  const abs = path.resolve(address);
  return { location: folderLocation(path.dirname(abs)), name: path.basename(abs) };
}
