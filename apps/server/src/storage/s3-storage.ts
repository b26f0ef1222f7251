import {
  DeleteObjectCommand,
  GetObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3Settings } from "../config";
import { checkedKey, contentDisposition, PUBLIC_BUCKETS, publicFileUrl, SIGNED_URL_SECONDS, type Bucket, type Storage, type StoredEntry } from "./storage";

/** An ETag that is the MD5 of the bytes (single-part uploads); multipart and encrypted ones are not. */
const MD5_ETAG = /^"?([0-9a-f]{32})"?$/;

/** An S3 client for `s3`'s credentials at `endpoint` (the storage's, and the backups' bucket prefix). */
export function makeS3Client(s3: S3Settings, endpoint: string) {
  const config: S3ClientConfig = {
    endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    // S3-compatible servers (MinIO, s3rver, older Ceph) do not all know the SDK's default CRC checksums.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Without timeouts a stalled store would hold an upload request forever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
  };
  return new S3Client(config);
}

/** The origin of presigned links: the public endpoint, with the bucket as a subdomain unless path-style. */
export function presignedOrigin(s3: S3Settings): string {
  const url = new URL(s3.publicEndpoint);
  return s3.forcePathStyle ? url.origin : `${url.protocol}//${s3.bucket}.${url.host}`;
}

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

/**
 * Stores files as objects `<bucket>/<key>` in one S3-compatible bucket (the same layout as the disk
 * store's folders, so `npm run storage:copy` maps one onto the other). Private files are handed out as
 * presigned GETs straight to the bucket, signed against `publicEndpoint`; public ones at the app's
 * stable `/files/...` address, which streams them from here (docs/decisions/115-file-addresses.md).
 */
export function s3Storage(s3: S3Settings, now: () => number = Date.now): Storage {
  const s3Client = makeS3Client(s3, s3.endpoint);
  const presigner = s3.publicEndpoint === s3.endpoint ? s3Client : makeS3Client(s3, s3.publicEndpoint);
  const objectKey = (bucket: Bucket, key: string) => `${bucket}/${checkedKey(key)}`;
  return {
    async put(bucket, key, bytes, contentType) {
      await s3Client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: objectKey(bucket, key), Body: bytes, ContentType: contentType }));
    },
    async get(bucket, key) {
      try {
        const object = await s3Client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: objectKey(bucket, key) }));
        const bytes = Buffer.from(await object.Body!.transformToByteArray());
        return { bytes, contentType: object.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(bucket, key) {
      await s3Client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: objectKey(bucket, key) }));
    },
    async list(bucket, prefix) {
      const entries: StoredEntry[] = [];
      const strip = `${bucket}/`.length;
      for await (const page of paginateListObjectsV2({ client: s3Client }, { Bucket: s3.bucket, Prefix: `${bucket}/${prefix}` })) {
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          const md5 = MD5_ETAG.exec(o.ETag ?? "")?.[1];
          entries.push({ key: o.Key.slice(strip), size: o.Size ?? 0, ...(md5 ? { md5 } : {}) });
        }
      }
      return entries;
    },
    async signedUrl(bucket, key, seconds = SIGNED_URL_SECONDS) {
      if (PUBLIC_BUCKETS.has(bucket)) return publicFileUrl(bucket, key);
      const command = new GetObjectCommand({
        Bucket: s3.bucket,
        Key: objectKey(bucket, key),
        ResponseContentDisposition: contentDisposition(bucket, key),
      });
      return getSignedUrl(presigner, command, { expiresIn: seconds, signingDate: new Date(now()) });
    },
    publicUrl: publicFileUrl,
    verify: () => false,
    close() {
      s3Client.destroy();
      if (presigner !== s3Client) presigner.destroy();
    },
  };
}
